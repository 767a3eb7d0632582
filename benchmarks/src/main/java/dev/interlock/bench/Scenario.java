package dev.interlock.bench;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One measured jar: the handler the runtime client loads, the event of each run (prepared fresh, so repeated runs
 * do the same work rather than answering "already done"), and what makes its answer a success.
 */
record Scenario(String name, String handler, String handlerClass, Path jar, EventSource events, Verdict verdict) {

    /** Prepares the next run's event, seeding whatever state it needs first. */
    @FunctionalInterface
    interface EventSource {
        Prepared next() throws Exception;
    }

    /** One run's event and the check of the response to it. */
    record Prepared(String event, ResponseCheck check) {}

    /** Why a response is not the success the event should produce; empty when it is. */
    @FunctionalInterface
    interface ResponseCheck {
        Optional<String> problem(String response) throws Exception;
    }

    /** Whether the jar can be measured: present and holding its handler (functions still on their branches are not). */
    @FunctionalInterface
    interface Verdict {
        Optional<String> whyMissing();
    }
}
