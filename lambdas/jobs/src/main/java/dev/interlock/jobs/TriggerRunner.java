package dev.interlock.jobs;

/** Starts a pipeline's job. Never throws for a job that cannot be started: that is a {@code failed} result. */
public interface TriggerRunner {

    TriggerResult start(TriggerRequest request);
}
