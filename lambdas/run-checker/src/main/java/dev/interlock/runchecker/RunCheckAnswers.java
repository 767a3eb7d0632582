package dev.interlock.runchecker;

import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckState;
import dev.interlock.model.contract.RunCheckOutput;
import dev.interlock.model.run.FailureCategory;

/** A poll's result as the run-checker's {@link RunCheckOutput}. */
final class RunCheckAnswers {

    private RunCheckAnswers() {}

    static RunCheckOutput of(RunCheck check) {
        // A check that failed but will be retried carries a category for the logs only: the machine must not see
        // one on a running answer.
        String category =
                check.state() == RunCheckState.FAILED ? check.failureCategory().wireName() : "";
        return new RunCheckOutput(check.state().wireName(), check.message(), category);
    }

    static RunCheckOutput failed(String message, FailureCategory category) {
        return new RunCheckOutput(RunCheckState.FAILED.wireName(), message, category.wireName());
    }
}
