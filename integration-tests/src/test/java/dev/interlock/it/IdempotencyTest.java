package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/** Re-deliveries and concurrent requests never trigger a job twice. */
class IdempotencyTest extends EndToEnd {

    @Override
    Duration asyncJobDuration() {
        // Long enough (scaled) that the first execution still holds the lock while the others arrive.
        return Duration.ofMinutes(10);
    }

    private String airflowPipeline(String name, String dag) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: airflow, url: "%s", dagId: %s}
                pollIntervalSeconds: 30
                """.formatted(name, jobs.endpoint(), dag);
    }

    @Test
    void theSameMarkerDeliveredTwiceStartsOneExecution() {
        LocalDate date = today();
        putPipeline(airflowPipeline("idem-twice", "idem_twice"));
        String name = evaluate("idem-twice", date);
        String arn = arnOf(name);
        await(
                "running",
                () -> {
                    try {
                        return status(arn);
                    } catch (software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException e) {
                        return null;
                    }
                },
                s -> s == ExecutionStatus.RUNNING);
        String input =
                aws.stepFunctions().describeExecution(b -> b.executionArn(arn)).input();

        // The stream router re-delivering the record starts the same name with the same input: while it runs, AWS
        // (and the local service) answer with the running execution instead of a second one.
        String again = aws.stepFunctions()
                .startExecution(
                        b -> b.stateMachineArn(rt.stateMachineArn()).name(name).input(input))
                .executionArn();
        assertThat(again).isEqualTo(arn);
        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        // After it closed, the name cannot be reused at all.
        assertThatThrownBy(() -> aws.stepFunctions()
                        .startExecution(b -> b.stateMachineArn(rt.stateMachineArn())
                                .name(name)
                                .input(input)))
                .isInstanceOf(ExecutionAlreadyExistsException.class);

        assertThat(executions("idem-twice")).extracting(ExecutionListItem::name).containsExactly(name);
        assertThat(jobs.triggersOf("idem_twice")).isEqualTo(1);
        assertThat(runs("idem-twice"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("COMPLETED");
        assertThat(eventsOf("idem-twice", "TRIGGER_FIRED")).hasSize(1);
        assertThat(runLogStatus("idem-twice", date, "daily")).isEqualTo("COMPLETED");
        assertThat(alerts("idem-twice")).isEmpty();
    }

    @Test
    void fiveConcurrentEvaluationRequestsTriggerOnce() throws Exception {
        LocalDate date = today();
        putPipeline(airflowPipeline("idem-five", "idem_five"));
        List<String> names = new ArrayList<>();
        for (Response r : concurrentEvaluations("idem-five", date, 5)) {
            assertThat(r.status()).as(r.raw()).isEqualTo(202);
            names.add(r.body().path("executionName").asText());
        }
        assertThat(names).doesNotHaveDuplicates();

        List<ExecutionListItem> done = awaitExecutionsDone("idem-five", 5);
        assertThat(done).extracting(ExecutionListItem::name).containsExactlyInAnyOrderElementsOf(names);
        assertThat(done).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        // Exactly one passes the lock and the run-log gate; the others end at one of the two gates.
        List<List<String>> paths =
                done.stream().map(e -> visited(e.executionArn())).toList();
        assertThat(paths).filteredOn(p -> p.contains("TriggerPipeline")).hasSize(1);
        assertThat(paths)
                .filteredOn(p -> !p.contains("TriggerPipeline"))
                .allSatisfy(p -> assertThat(p).doesNotContain("ResolvePipeline").endsWith("Done"));
        assertThat(jobs.triggersOf("idem_five")).isEqualTo(1);
        assertThat(runs("idem-five")).extracting(r -> r.path("status").asText()).containsExactly("COMPLETED");
        JsonNode log = runLog("idem-five", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(log.path("attemptNumber").asInt()).isZero();
        assertThat(eventsOf("idem-five", "TRIGGER_FIRED")).hasSize(1);
        assertThat(alerts("idem-five")).isEmpty();
    }
}
