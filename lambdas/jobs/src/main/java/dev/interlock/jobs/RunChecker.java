package dev.interlock.jobs;

/**
 * Polls a started job. Never throws: a failure to check that may pass (throttling, a network error, a timeout) is
 * {@code running}, so the next poll tries again; only a permanent one (bad metadata, access denied) is {@code failed}.
 */
public interface RunChecker {

    RunCheck check(RunCheckRequest request);
}
