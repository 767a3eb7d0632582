package dev.interlock.runchecker;

import dev.interlock.deps.prime.Priming;
import dev.interlock.deps.testing.PrimingCheck;
import dev.interlock.model.runtime.InterlockFunction;
import org.junit.jupiter.api.Test;

/**
 * The bundled priming events rehearse the real handler end to end — every event answered without a failure, every
 * AWS call answered inside the process, no request reaching an endpoint — so a SnapStart snapshot is taken warm.
 */
class RunCheckerHandlerPrimingTest {

    @Test
    void everyPrimingEventIsRehearsedWithoutFailureAndWithoutLeavingTheProcess() {
        try (PrimingCheck check = PrimingCheck.start(InterlockFunction.RUN_CHECKER)) {
            RunCheckerHandler handler = new RunCheckerHandler(check.deps());
            Priming.Report report = Priming.prime(InterlockFunction.RUN_CHECKER, RunCheckerHandler.class,
                    Priming.rehearsal(handler), check.log());
            check.assertClean(report, RunCheckerHandler.class, true);
        }
    }
}
