package dev.interlock.streamrouter;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.testing.PrimingCheck;
import dev.interlock.wiring.priming.Priming;
import org.junit.jupiter.api.Test;

/**
 * The bundled priming events rehearse the real handler end to end — every event answered without a failure, every
 * AWS call answered inside the process, no request reaching an endpoint — so a SnapStart snapshot is taken warm.
 */
class StreamRouterHandlerPrimingTest {

    @Test
    void everyPrimingEventIsRehearsedWithoutFailureAndWithoutLeavingTheProcess() {
        PrimingCheck.assertRehearsesCleanly(
                InterlockFunction.STREAM_ROUTER,
                StreamRouterHandler.class,
                deps -> Priming.rehearsal(new StreamRouterHandler(deps), DynamodbEvent.class),
                true);
    }
}
