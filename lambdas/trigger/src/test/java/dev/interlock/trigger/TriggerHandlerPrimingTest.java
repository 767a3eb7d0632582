package dev.interlock.trigger;

import dev.interlock.deps.prime.Priming;
import dev.interlock.deps.testing.PrimingCheck;
import dev.interlock.model.runtime.InterlockFunction;
import org.junit.jupiter.api.Test;

/**
 * The bundled priming events rehearse the real handler end to end — every event answered without a failure, every
 * AWS call answered inside the process, no request reaching an endpoint — so a SnapStart snapshot is taken warm.
 */
class TriggerHandlerPrimingTest {

    @Test
    void everyPrimingEventIsRehearsedWithoutFailureAndWithoutLeavingTheProcess() {
        // With every read answered "not found", the claim cannot see the run it creates: the rehearsal covers
        // the request, the store's reads and writes and the claim loop, and ends there (no job is ever started).
        PrimingCheck.assertRehearsesCleanly(InterlockFunction.TRIGGER, TriggerHandler.class,
                deps -> Priming.rehearsal(new TriggerHandler(deps)), true,
                "dev.interlock.store.StoreException: run 00000000-0000-4000-8000-000000000000: the run state kept "
                        + "changing while the trigger tried to claim it");
    }
}
