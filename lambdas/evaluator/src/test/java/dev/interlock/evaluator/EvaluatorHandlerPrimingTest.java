package dev.interlock.evaluator;

import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.testing.PrimingCheck;
import dev.interlock.wiring.priming.Priming;
import org.junit.jupiter.api.Test;

/**
 * The bundled priming events rehearse the real handler end to end — every event answered without a failure, every
 * AWS call answered inside the process, no request reaching an endpoint — so a SnapStart snapshot is taken warm.
 */
class EvaluatorHandlerPrimingTest {

    @Test
    void everyPrimingEventIsRehearsedWithoutFailureAndWithoutLeavingTheProcess() {
        PrimingCheck.assertRehearsesCleanly(
                InterlockFunction.EVALUATOR,
                EvaluatorHandler.class,
                deps -> Priming.rehearsal(new EvaluatorHandler(deps)),
                true);
    }
}
