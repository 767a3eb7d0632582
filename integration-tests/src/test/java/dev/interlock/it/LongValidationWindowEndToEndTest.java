package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * A validation window longer than one execution ({@code sla.validationTimeout: "+6h"}, an execution has 4 h) is
 * honoured to its configured deadline by successor executions that take over the wait with the lock, re-evaluating at
 * the interval with no gap and no duplicate round — for an HTTP evaluator too, which no sensor write can wake. Six
 * scaled hours take a little over a minute at the fixture's 300×.
 */
class LongValidationWindowEndToEndTest extends EndToEnd {

    /** When the HTTP evaluator starts answering PASS (product time); null: never. */
    private final AtomicReference<Instant> readyAt = new AtomicReference<>();

    /** One answer of the HTTP evaluator: to which pipeline's path, when (product time) and what. */
    private record Answer(String path, Instant at, String status) {}

    private final List<Answer> answers = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** An HTTP evaluator answering FAIL until {@link #readyAt} (product time), PASS from then on. */
    private String evaluatorUrl() {
        return evaluator("/check", path -> {
            Instant ready = readyAt.get();
            Instant now = rt.clock().instant();
            String answer = ready != null && !now.isBefore(ready) ? "PASS" : "FAIL";
            answers.add(new Answer(path, now, answer));
            return EvaluatorAnswer.of(answer);
        });
    }

    /** A window that opened at the current product minute, with a {@code +6h} validation timeout. */
    private String pipeline(String name, String after) throws IOException {
        return """
                name: %s
                archetype: batch-ingestion
                schedules:
                  - {name: daily, after: "%s"}
                traits:
                  source-freshness: {evaluator: "%s"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                evaluationIntervalSeconds: 60
                sla: {validationTimeout: "+6h"}
                """.formatted(name, after, evaluatorUrl() + "/" + name, jobs.endpoint(), name.replace('-', '_'));
    }

    private Instant windowOpening() {
        return rt.clock().instant().truncatedTo(ChronoUnit.MINUTES);
    }

    private static String hhmm(Instant opening) {
        return LocalTime.ofInstant(opening, ZoneOffset.UTC).toString().substring(0, 5);
    }

    @Test
    void aSixHourWindowWhoseHttpEvaluatorTurnsReadyAtFourHoursThirtyRunsTheDayOnce() throws IOException {
        LocalDate date = today();
        Instant opens = windowOpening();
        readyAt.set(opens.plus(Duration.ofMinutes(270)));
        putPipeline(pipeline("lw-ready", hhmm(opens)));

        evaluate("lw-ready", date);

        await(
                "the day completed",
                () -> runLogStatus("lw-ready", date, "daily"),
                "COMPLETED"::equals,
                Duration.ofMinutes(5));
        List<ExecutionListItem> executions =
                awaitExecutionsDone("lw-ready", executions("lw-ready").size());
        assertThat(executions).hasSizeGreaterThanOrEqualTo(2);
        assertThat(executions).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(jobs.triggersOf("lw_ready")).as("the job ran once").isEqualTo(1);
        assertThat(eventsOf("lw-ready", "VALIDATION_EXHAUSTED")).isEmpty();
        assertThat(alertKinds("lw-ready")).doesNotContain("VALIDATION_EXHAUSTED");
        List<JsonNode> readiness = eventsOf("lw-ready", "READINESS_CHECKED");
        assertThat(readiness.getLast().path("status").asText()).isEqualTo("READY");
        assertThat(readiness.subList(0, readiness.size() - 1))
                .allSatisfy(r -> assertThat(r.path("status").asText()).isEqualTo("NOT_READY"));
        // Ready at the first round after the data turned ready, which a successor execution evaluated: the
        // evaluator answered FAIL before readyAt and PASS once, at the next round. (The rounds' events are stamped
        // when checkReadiness records them, a moment after the evaluator answered, so they cannot tell this.)
        List<Answer> lwReady =
                answers.stream().filter(a -> a.path().equals("/check/lw-ready")).toList();
        assertThat(lwReady.getLast().status()).isEqualTo("PASS");
        assertThat(lwReady.stream().filter(a -> a.status().equals("PASS"))).hasSize(1);
        assertThat(lwReady.getLast().at()).isAfterOrEqualTo(readyAt.get());
        assertThat(lwReady.get(lwReady.size() - 2).at()).isBefore(readyAt.get());
        assertThat(eventsOf("lw-ready", "EXECUTION_HANDED_OVER")).hasSize(executions.size() - 1);
        assertThat(runLog("lw-ready", date, "daily").path("status").asText()).isEqualTo("COMPLETED");
    }

    @Test
    void aWindowWhoseDataNeverComesIsExhaustedExactlyAtItsDeadlineWithSuccessorExecutionsAndNoDuplicateRound()
            throws IOException {
        LocalDate date = today();
        Instant opens = windowOpening();
        Instant deadline = opens.plus(Duration.ofHours(6));
        readyAt.set(null);
        putPipeline(pipeline("lw-never", hhmm(opens)));

        String first = evaluate("lw-never", date);

        await("the day failed", () -> runLogStatus("lw-never", date, "daily"), "FAILED"::equals, Duration.ofMinutes(5));
        List<ExecutionListItem> executions =
                awaitExecutionsDone("lw-never", executions("lw-never").size());
        // Successor executions, visible through the Step Functions API: each started by a continuation marker.
        assertThat(executions.getFirst().name()).isEqualTo(first);
        assertThat(executions).hasSizeGreaterThanOrEqualTo(2);
        assertThat(executions.subList(0, executions.size() - 1))
                .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(executions.getLast().status()).isEqualTo(ExecutionStatus.FAILED);
        List<JsonNode> handOvers = eventsOf("lw-never", "EXECUTION_HANDED_OVER");
        assertEachHandedOverToTheNext(handOvers, executions, "continuation");
        // Exhausted at the configured deadline, not when the first execution's budget ran out.
        List<JsonNode> exhausted = eventsOf("lw-never", "VALIDATION_EXHAUSTED");
        assertThat(exhausted).hasSize(1);
        Instant exhaustedAt =
                Instant.parse(exhausted.getFirst().path("timestamp").asText());
        assertThat(exhaustedAt).isAfterOrEqualTo(deadline);
        assertThat(alertKinds("lw-never")).containsOnlyOnce("VALIDATION_EXHAUSTED");
        // One round per interval across the hand-overs: never two rounds within one interval (a duplicate), and the
        // successor's first round no later than the rounds inside an execution are apart.
        List<Instant> rounds = eventsOf("lw-never", "READINESS_CHECKED").stream()
                .map(e -> Instant.parse(e.path("timestamp").asText()))
                .toList();
        // Exhausted by the first round whose deadline check came at or after the deadline (exhaustedAt, above; the
        // round's own event is stamped a moment before its check, so it may fall just short of the deadline): the
        // round before it was still inside the window.
        assertThat(rounds.getLast()).isBeforeOrEqualTo(exhaustedAt);
        assertThat(rounds.get(rounds.size() - 2)).isBefore(deadline);
        List<Duration> gaps = new ArrayList<>();
        for (int i = 1; i < rounds.size(); i++) {
            gaps.add(Duration.between(rounds.get(i - 1), rounds.get(i)));
        }
        assertThat(gaps).allSatisfy(g -> assertThat(g).isGreaterThanOrEqualTo(Duration.ofSeconds(60)));
        Duration widestInside = Duration.ZERO;
        List<Duration> acrossHandOver = new ArrayList<>();
        List<Instant> handOverTimes = handOvers.stream()
                .map(e -> Instant.parse(e.path("timestamp").asText()))
                .toList();
        for (int i = 1; i < rounds.size(); i++) {
            Instant before = rounds.get(i - 1);
            Instant after = rounds.get(i);
            boolean crosses = handOverTimes.stream().anyMatch(h -> h.isAfter(before) && h.isBefore(after));
            if (crosses) {
                acrossHandOver.add(gaps.get(i - 1));
            } else if (gaps.get(i - 1).compareTo(widestInside) > 0) {
                widestInside = gaps.get(i - 1);
            }
        }
        // The successor starts (stream router, gates) inside the interval it waits out; under a loaded machine's scaled
        // clock a round's own calls take product minutes, so the bound allows a few of them on top of the widest round.
        Duration bound = widestInside.multipliedBy(2).plusSeconds(120);
        assertThat(acrossHandOver)
                .hasSize(handOvers.size())
                .allSatisfy(g -> assertThat(g).isLessThanOrEqualTo(bound));
        assertThat(jobs.triggersOf("lw_never")).isZero();
        assertThat(call("GET", "/pipelines/lw-never/locks/daily/" + date, null, null)
                        .status())
                .as("lock released at the end")
                .isEqualTo(404);
    }

    @Test
    void registrationRefusesAValidationTimeoutLongerThanTheMaximumWithItsPath() {
        Response refused = call("PUT", "/pipelines/lw-too-long", "application/yaml", """
                name: lw-too-long
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "http://jobs.example.com/run"}
                sla: {validationTimeout: "+25h"}
                monitoring: {enabled: true, duration: 169h}
                """);

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.raw()).contains("$.sla.validationTimeout").contains("at most 24h");
        assertThat(refused.raw()).contains("$.monitoring.duration").contains("at most 7 days");
        assertThat(call("GET", "/pipelines/lw-too-long", null, null).status()).isEqualTo(404);
    }
}
