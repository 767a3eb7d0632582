package dev.interlock.evaluator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.runtime.Environment;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.wiring.Deps;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The handler built from Deps the way the Lambda entry builds it, storing through the DynamoDB Provider. */
class EvaluatorWiringTest {

    @Test
    void aHandlerBuiltFromDepsAnswersWritingNothingAndCreatesNoOtherClient() throws IOException {
        try (AwsProtocolStub dynamo = AwsProtocolStub.start()) {
            dynamo.on("DynamoDB_20120810.PutItem", Reply.json("{}"));
            Environment env = Environment.of(Map.of(
                    "TABLE_NAME",
                    "interlock-test",
                    "AWS_REGION",
                    "us-east-1",
                    "INTERLOCK_ENDPOINT_DYNAMODB",
                    dynamo.endpoint().toString()));
            try (Deps deps = new Deps(env, Clock.systemUTC())) {
                EvaluatorHandler handler = new EvaluatorHandler(deps);
                ByteArrayOutputStream out = new ByteArrayOutputStream();

                handler.handleRequest(
                        new ByteArrayInputStream(("{\"pipelineId\":\"orders\",\"scheduleId\":\"daily\","
                                        + "\"date\":\"2026-03-01\",\"traitType\":\"demo\",\"evaluator\":\"builtin:always-pass\","
                                        + "\"config\":{},\"timeout\":5,\"ttl\":60,\"required\":true}")
                                .getBytes(StandardCharsets.UTF_8)),
                        out,
                        null);

                assertThat(out.toString(StandardCharsets.UTF_8))
                        .isEqualTo("{\"traitType\":\"demo\",\"status\":\"PASS\","
                                + "\"value\":{\"builtin\":\"always-pass\"},\"required\":true}");
                assertThat(deps.clients().created("lambda")).isFalse();
                assertThat(deps.clients().created("sns")).isFalse();
            }
            // The evaluator writes nothing: the orchestrator records the round.
            assertThat(dynamo.requests("DynamoDB_20120810.PutItem")).isEmpty();
        }
    }
}
