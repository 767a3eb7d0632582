package dev.interlock.orchestrator;

import dev.interlock.deps.prime.Priming;
import dev.interlock.deps.testing.PrimingCheck;
import dev.interlock.model.runtime.InterlockFunction;
import org.junit.jupiter.api.Test;

/**
 * The bundled priming events rehearse the real handler end to end — every event answered without a failure, every
 * AWS call answered inside the process, no request reaching an endpoint — so a SnapStart snapshot is taken warm.
 */
class OrchestratorHandlerPrimingTest {

    @Test
    void everyPrimingEventIsRehearsedWithoutFailureAndWithoutLeavingTheProcess() {
        try (PrimingCheck check = PrimingCheck.start(InterlockFunction.ORCHESTRATOR)) {
            OrchestratorHandler handler = new OrchestratorHandler(check.deps());
            Priming.Report report = Priming.prime(InterlockFunction.ORCHESTRATOR, OrchestratorHandler.class,
                    Priming.rehearsal(handler), check.log());
            check.assertClean(report, OrchestratorHandler.class, true);
        }
    }
}
