package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.runtime.RuntimeOptions;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * A pipeline registered in the evening: its hourly windows that opened earlier that day are not run
 * unless the document says {@code catchUp: true}, and deadlines that passed before it existed never raise SLA_MISSED.
 * The runtime's clock starts shortly before 18:07 UTC on 2026-03-02, so the registration lands in the evening whatever
 * the real time of day; what opened "before registration" is judged against the runtime clock read at the PUT.
 */
class ForwardOnlyTest extends EndToEnd {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 2);
    private static final Instant ORIGIN = Instant.parse("2026-03-02T17:55:00Z");

    @Override
    boolean sharedRuntime() {
        // Each scenario starts its own runtime, so each registers shortly after its clock's 17:55 origin.
        return false;
    }

    @BeforeEach
    void freshRuntime() throws Exception {
        startRuntime(null);
    }

    @Override
    RuntimeOptions runtimeOptions(Path dataDir) {
        return super.runtimeOptions(dataDir).withClockStart(ORIGIN);
    }

    private String hourly(String name, String extra) {
        String schedules = IntStream.range(0, 24)
                .mapToObj(h -> "  - {name: h%02d, after: \"%02d:10\", deadline: \"%02d:50\", timezone: UTC}"
                        .formatted(h, h, h))
                .reduce((a, b) -> a + "\n" + b)
                .orElseThrow();
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                %s
                schedules:
                %s
                """.formatted(name, jobs.endpoint(), name, extra, schedules);
    }

    private JsonNode tick() {
        JsonNode response = invokeWatchdog();
        assertThat(response.path("result").asText()).isEqualTo("proceed");
        return response.path("payload");
    }

    private static Set<String> texts(JsonNode array) {
        Set<String> out = new TreeSet<>();
        StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).forEach(out::add);
        return out;
    }

    /** The hours of {@link #DAY} whose window (HH:10 UTC) opened strictly before {@code instant}. */
    private static List<Integer> hoursOpenedBefore(Instant instant) {
        return IntStream.range(0, 24)
                .filter(h -> DAY.atTime(LocalTime.of(h, 10))
                        .toInstant(ZoneOffset.UTC)
                        .isBefore(instant))
                .boxed()
                .toList();
    }

    private Instant now() {
        return rt.clock().instant();
    }

    @Test
    void registeredInTheEveningItRunsOnlyWindowsThatOpenAfterwardAndIsNeverLateForEarlierDeadlines() {
        Instant before = now();
        putPipeline(hourly("fo-hourly", ""));
        Instant after = now();
        assertThat(LocalDate.ofInstant(after, ZoneOffset.UTC))
                .as("the scenario needs the registration on " + DAY)
                .isEqualTo(DAY);

        JsonNode first = tick();
        assertThat(texts(first.path("markersWritten"))).noneMatch(m -> m.startsWith("fo-hourly/"));
        assertThat(texts(first.path("slaMissed"))).noneMatch(m -> m.startsWith("fo-hourly/"));

        // The first window that opens after the registration is run, once its opening passes.
        int next = hoursOpenedBefore(after).size();
        Instant opens = DAY.atTime(LocalTime.of(next, 10)).toInstant(ZoneOffset.UTC);
        await("the clock past " + opens, this::now, t -> t.isAfter(opens));
        JsonNode second = tick();
        Set<String> written = texts(second.path("markersWritten"));
        assertThat(written).contains("fo-hourly/h%02d/%s".formatted(next, DAY));
        // A window that opened while the PUT was under way may count as registered before or after it.
        List<String> duringRegistration = hoursOpenedBefore(after).stream()
                .filter(h -> !hoursOpenedBefore(before).contains(h))
                .map(h -> "fo-hourly/h%02d/%s".formatted(h, DAY))
                .toList();
        assertThat(written)
                .filteredOn(m -> !m.equals("fo-hourly/h%02d/%s".formatted(next, DAY)))
                .isSubsetOf(duringRegistration);
        List<ExecutionListItem> runs = awaitExecutionsDone("fo-hourly", written.size());
        assertThat(runs).allSatisfy(r -> assertThat(r.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(runLogStatus("fo-hourly", DAY, "h%02d".formatted(next))).isEqualTo("COMPLETED");

        // Past the deadline of every window that opened before the registration (and of the one that may have been
        // open during it): not one SLA_MISSED, and none of those windows ever ran.
        int opened = hoursOpenedBefore(before).size();
        Instant lastEarlierDeadline =
                DAY.atTime(LocalTime.of(Math.max(0, next - 1), 50)).toInstant(ZoneOffset.UTC);
        await("the clock past " + lastEarlierDeadline, this::now, t -> t.isAfter(lastEarlierDeadline));
        JsonNode third = tick();
        assertThat(texts(third.path("slaMissed"))).noneMatch(m -> m.startsWith("fo-hourly/"));
        assertThat(alerts("fo-hourly")).isEmpty();
        assertThat(runLogs("fo-hourly"))
                .extracting(l -> l.path("scheduleId").asText())
                .noneMatch(s -> Integer.parseInt(s.substring(1)) < opened);
        assertThat(executions("fo-hourly")).hasSize(written.size());
        assertThat(jobs.triggersOf("fo-hourly")).isEqualTo(written.size());
    }

    @Test
    void catchUpTrueRunsTheDaysEarlierWindowsButStillNeverAlertsForDeadlinesBeforeRegistration() {
        putPipeline(hourly("fo-catchup", "catchUp: true"));
        Instant after = now();
        List<Integer> earlier = hoursOpenedBefore(after);
        assertThat(earlier).as("windows that opened before the registration").contains(0, 17);

        JsonNode tick = tick();

        Set<String> written = texts(tick.path("markersWritten"));
        assertThat(written)
                .filteredOn(m -> m.startsWith("fo-catchup/"))
                .containsAll(earlier.stream()
                        .filter(h -> DAY.atTime(LocalTime.of(h, 10))
                                .toInstant(ZoneOffset.UTC)
                                .isBefore(after))
                        .map(h -> "fo-catchup/h%02d/%s".formatted(h, DAY))
                        .toList());
        assertThat(texts(tick.path("slaMissed"))).noneMatch(m -> m.startsWith("fo-catchup/"));
        List<ExecutionListItem> runs = awaitExecutionsDone("fo-catchup", written.size());
        assertThat(runs).allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(runs)
                .extracting(e -> input(e.executionArn()).path("markerSource").asText())
                .containsOnly("schedule");
        assertThat(alerts("fo-catchup")).isEmpty();
    }
}
