package dev.interlock.orchestrator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** What a watchdog tick collects, from several threads: its {@link Watchdog.Summary} in the making. */
final class WatchdogTally {
    final AtomicInteger pipelines = new AtomicInteger();
    final AtomicInteger entries = new AtomicInteger();
    final List<String> markersWritten = Collections.synchronizedList(new ArrayList<>());
    final Set<String> slaMissed = ConcurrentHashMap.newKeySet();
    final List<String> stuckRuns = Collections.synchronizedList(new ArrayList<>());
    final List<String> jobEventsRecovered = Collections.synchronizedList(new ArrayList<>());
    final Set<String> excluded = ConcurrentHashMap.newKeySet();
    final List<String> errors = Collections.synchronizedList(new ArrayList<>());

    Watchdog.Summary summary(boolean caughtUp) {
        return new Watchdog.Summary(
                pipelines.get(),
                sorted(markersWritten),
                sorted(slaMissed),
                sorted(stuckRuns),
                sorted(excluded),
                sorted(errors),
                entries.get(),
                caughtUp,
                sorted(jobEventsRecovered));
    }

    private static List<String> sorted(java.util.Collection<String> values) {
        synchronized (values) {
            return List.copyOf(new TreeSet<>(values));
        }
    }
}
