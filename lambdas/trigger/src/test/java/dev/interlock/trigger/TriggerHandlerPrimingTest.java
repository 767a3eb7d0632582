package dev.interlock.trigger;

import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.testing.PrimingCheck;
import dev.interlock.wiring.priming.Priming;
import org.junit.jupiter.api.Test;

/**
 * The bundled priming events rehearse the real handler end to end — every event answered without a failure, every
 * AWS call answered inside the process, no request reaching an endpoint — so a SnapStart snapshot is taken warm.
 */
class TriggerHandlerPrimingTest {

    @Test
    void everyPrimingEventIsRehearsedWithoutFailureAndWithoutLeavingTheProcess() {
        PrimingCheck.assertRehearsesCleanly(
                InterlockFunction.TRIGGER,
                TriggerHandler.class,
                deps -> Priming.rehearsal(new TriggerHandler(deps)),
                true);
    }
}
