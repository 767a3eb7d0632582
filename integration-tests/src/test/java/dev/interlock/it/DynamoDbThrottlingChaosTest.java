package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.runtime.FunctionSet;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.wiring.Deps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Chaos catalogue, scenario 11 (the rest are in {@link ChaosCatalogueTest}): DynamoDB throttling during a CAS race.
 * Five evaluations of one pipeline day race for its lock while the table throttles the very writes the race is decided
 * by — lock puts, run-state updates, transactions. The orchestrator and trigger reach DynamoDB Local through
 * {@link ThrottlingDynamoDbProxy}, so they meet {@code ProvisionedThroughputExceededException} through their real SDK
 * clients and the Provider's backoff.
 *
 * <p>This scenario has its own class because of the clock: the SDK and the Provider back off in real time, and at the
 * catalogue's 300x product clock a second of real backoff is five minutes of an execution's four-hour budget, so a
 * throttling storm timed executions out — a harness artefact (on AWS the same backoff is seconds of four hours). At
 * 30x a storm's real-time backoff costs tens of product minutes, not hours, so the executions keep within their budget
 * (a loser whose lock wait outlasts it hands over to a successor, as on AWS) and the scenario takes a minute or two.
 */
class DynamoDbThrottlingChaosTest extends EndToEnd {

    private static final Duration WITHIN = Duration.ofMinutes(4);

    private volatile ThrottlingDynamoDbProxy throttling;
    private final List<Deps> proxiedDeps = new CopyOnWriteArrayList<>();

    @Override
    double timeScale() {
        return 30.0;
    }

    @Override
    Duration asyncJobDuration() {
        return Duration.ofMinutes(2);
    }

    @Override
    FunctionSet functions() {
        return new ProductionFunctions() {
            @Override
            public RequestStreamHandler orchestrator(Deps deps) {
                return super.orchestrator(throughThrottlingProxy(deps));
            }

            @Override
            public RequestStreamHandler trigger(Deps deps) {
                return super.trigger(throughThrottlingProxy(deps));
            }
        };
    }

    /** The same function's deps, but reaching DynamoDB through the throttling proxy. */
    private synchronized Deps throughThrottlingProxy(Deps deps) {
        try {
            if (throttling == null) {
                throttling = ThrottlingDynamoDbProxy.start(
                        URI.create(deps.environment().get(EnvVar.INTERLOCK_ENDPOINT_DYNAMODB)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Deps throttled = new Deps(
                deps.environment()
                        .with(Map.of(
                                EnvVar.INTERLOCK_ENDPOINT_DYNAMODB.name(),
                                throttling.endpoint().toString())),
                deps.clock());
        proxiedDeps.add(throttled);
        return throttled;
    }

    @Override
    void stopRuntime() {
        super.stopRuntime();
        proxiedDeps.forEach(Deps::close);
        if (throttling != null) {
            throttling.close();
        }
    }

    @Test
    void dynamoDbThrottlingDuringACasRaceLosesNothingAndStartsTheJobOnce() throws Exception {
        LocalDate date = today();
        putPipeline("""
                name: chaos-throttle
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: airflow, url: "%s", dagId: chaos_throttle}
                pollIntervalSeconds: 30
                """.formatted(jobs.endpoint()));
        // Lock puts, run-state updates and transactions are throttled while five evaluations race for the day.
        throttling.throttle("PutItem", 5);
        throttling.throttle("UpdateItem", 5);
        throttling.throttle("TransactWriteItems", 5);
        for (Response answer : concurrentEvaluations("chaos-throttle", date, 5)) {
            assertThat(answer.status()).as(answer.raw()).isEqualTo(202);
        }

        // The race is over when nothing runs any more and every execution that handed its work over (its lock wait
        // outlasted its budget) has its successor among the executions: five started, plus one per hand-over.
        List<ExecutionListItem> done;
        try {
            done = await(
                    "chaos-throttle: every execution and successor finished",
                    () -> executions("chaos-throttle"),
                    l -> l.size() >= 5
                            && l.stream().noneMatch(e -> e.status() == ExecutionStatus.RUNNING)
                            && l.size()
                                    == 5
                                            + eventsOf("chaos-throttle", "EXECUTION_HANDED_OVER")
                                                    .size(),
                    WITHIN);
        } catch (AssertionError stuck) {
            throw new AssertionError(whatOnCallSees(date, stuck.getMessage()), stuck);
        }
        assertThat(throttling.throttledOf("PutItem")
                        + throttling.throttledOf("UpdateItem")
                        + throttling.throttledOf("TransactWriteItems"))
                .as("the race met throttling")
                .isPositive();
        assertThat(done)
                .as(whatOnCallSees(date, ""))
                .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(jobs.triggersOf("chaos_throttle")).isEqualTo(1);
        assertThat(eventsOf("chaos-throttle", "TRIGGER_FIRED")).hasSize(1);
        assertThat(runs("chaos-throttle"))
                .extracting(r -> r.path("status").asText())
                .containsExactly("COMPLETED");
        JsonNode log = runLog("chaos-throttle", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(log.path("attemptNumber").asInt()).isZero();
        // Every loser ended on the success path having said why it did not run the job: it found the day completed
        // (EVALUATION_SKIPPED), handed its evaluation to a successor (EXECUTION_HANDED_OVER), or met the holder still
        // evaluating, which does its work anyway (MARKER_ABSORBED). No lock is left behind.
        List<List<String>> losers = done.stream()
                .map(e -> visited(e.executionArn()))
                .filter(p -> !p.contains("TriggerPipeline"))
                .toList();
        assertThat(losers)
                .hasSize(done.size() - 1)
                .allSatisfy(p -> assertThat(p).endsWith("Done"));
        assertThat(eventsOf("chaos-throttle", "EVALUATION_SKIPPED").size()
                        + eventsOf("chaos-throttle", "EXECUTION_HANDED_OVER").size()
                        + eventsOf("chaos-throttle", "MARKER_ABSORBED").size())
                .as(whatOnCallSees(date, ""))
                .isEqualTo(losers.size());
        assertThat(call("GET", "/pipelines/chaos-throttle/locks/daily/" + date, null, null)
                        .status())
                .isEqualTo(404);
        assertThat(alertKinds("chaos-throttle")).doesNotContain("EXECUTION_ERROR", "GATE_ERROR");
    }

    /** What an on-call engineer would look at: the lock, the throttling met, the trail, the executions' paths. */
    private String whatOnCallSees(LocalDate date, String headline) {
        StringBuilder seen = new StringBuilder(headline)
                .append("\nlock: ")
                .append(call("GET", "/pipelines/chaos-throttle/locks/daily/" + date, null, null)
                        .raw())
                .append("\nthrottled: PutItem ")
                .append(throttling.throttledOf("PutItem"))
                .append(", UpdateItem ")
                .append(throttling.throttledOf("UpdateItem"))
                .append(", TransactWriteItems ")
                .append(throttling.throttledOf("TransactWriteItems"))
                .append("\nevents: ")
                .append(eventKinds("chaos-throttle"));
        executions("chaos-throttle")
                .forEach(e -> seen.append("\n")
                        .append(e.name())
                        .append(' ')
                        .append(e.status())
                        .append(": ")
                        .append(visited(e.executionArn())));
        return seen.toString();
    }
}
