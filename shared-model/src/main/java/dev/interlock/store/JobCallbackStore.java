package dev.interlock.store;

import dev.interlock.model.run.JobCallback;
import dev.interlock.model.trigger.TriggerType;
import java.time.Instant;

/**
 * Job id → (run, task token) for jobs that complete by callback (statemachine/CONTRACT.md, {@code awaitJobCompletion}
 * and {@code jobStateChange}). Each write is one atomic update that answers the item as it is afterwards, so of a
 * waiter and a job end that race, at least one writer sees both.
 */
public interface JobCallbackStore {

    /**
     * Records (or replaces: a retried task waits under a new token) the run waiting for job {@code jobId}; the item
     * as it is afterwards, with the job's end if its event came first.
     */
    JobCallback await(TriggerType type, String jobId, JobCallback.Waiter waiter, Instant expiresAt);

    /** The item of job {@code jobId} as it is (a strongly consistent read), or null when there is none. */
    JobCallback find(TriggerType type, String jobId);

    /**
     * Records the job's end (the first one reported stays: a re-delivered event changes nothing); the item as it is
     * afterwards, with the waiting run if it waits already.
     */
    JobCallback ended(TriggerType type, String jobId, JobCallback.JobEnd end, Instant expiresAt);
}
