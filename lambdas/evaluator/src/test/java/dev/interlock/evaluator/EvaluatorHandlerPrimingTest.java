package dev.interlock.evaluator;

import dev.interlock.deps.prime.Priming;
import dev.interlock.deps.testing.PrimingCheck;
import dev.interlock.model.runtime.InterlockFunction;
import org.junit.jupiter.api.Test;

/**
 * The bundled priming events rehearse the real handler end to end — every event answered without a failure, every
 * AWS call answered inside the process, no request reaching an endpoint — so a SnapStart snapshot is taken warm.
 */
class EvaluatorHandlerPrimingTest {

    @Test
    void everyPrimingEventIsRehearsedWithoutFailureAndWithoutLeavingTheProcess() {
        try (PrimingCheck check = PrimingCheck.start(InterlockFunction.EVALUATOR)) {
            EvaluatorHandler handler = new EvaluatorHandler(check.deps());
            Priming.Report report = Priming.prime(InterlockFunction.EVALUATOR, EvaluatorHandler.class,
                    Priming.rehearsal(handler), check.log());
            check.assertClean(report, EvaluatorHandler.class, true);
        }
    }
}
