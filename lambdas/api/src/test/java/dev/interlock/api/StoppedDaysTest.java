package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.store.PageRequest;
import dev.interlock.store.RunLogKey;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Re-registering a pipeline runs again exactly the days a PERMANENT evaluator error stopped, within the stale window. */
class StoppedDaysTest {

    private static final LocalDate TODAY = LocalDate.parse("2026-03-10");

    private final ApiFixture api = new ApiFixture();

    private void runLog(LocalDate date, String trait, FailureCategory category) {
        RetryAttempt entry = new RetryAttempt(
                1, RunLogStatus.FAILED, null, "failed", category, ApiFixture.NOW, ApiFixture.NOW, trait);
        RunLog log = new RunLog(
                "silver",
                date,
                "daily",
                RunLogStatus.FAILED,
                0,
                null,
                "exec-" + date,
                "failed",
                category,
                List.of(entry),
                true,
                ApiFixture.NOW,
                ApiFixture.NOW,
                ApiFixture.NOW);
        api.store.runLogs().update(new RunLogKey("silver", date, "daily"), current -> log);
    }

    private List<Marker> markers(LocalDate date) {
        return api.store.cascade().markers("silver", date);
    }

    private List<Event> markerEvents() {
        return api.store.events().read("silver", PageRequest.first(100)).items().stream()
                .filter(e -> e.kind() == EventKind.MARKER_WRITTEN)
                .toList();
    }

    @Test
    void reRegisteringStartsOneEvaluationPerStoppedDayWithinTheStaleWindowAndSaysWhy() {
        assertThat(api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE).status())
                .isEqualTo(201);
        runLog(TODAY, "source-freshness", FailureCategory.PERMANENT); // stopped today
        runLog(TODAY.minusDays(1), null, FailureCategory.VALIDATION_EXHAUSTED); // a missed deadline, not a stop
        runLog(TODAY.minusDays(2), "source-freshness", FailureCategory.PERMANENT); // stopped, within 2 stale days
        runLog(TODAY.minusDays(5), "source-freshness", FailureCategory.PERMANENT); // its marker would be stale

        ApiFixture.Reply reply = api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE);

        assertThat(reply.status()).isEqualTo(200);
        JsonNode evaluations = reply.json().path("evaluations");
        assertThat(evaluations).hasSize(2);
        assertThat(evaluations.get(0).path("marker").path("date").asText()).isEqualTo(TODAY.toString());
        assertThat(evaluations.get(1).path("marker").path("date").asText())
                .isEqualTo(TODAY.minusDays(2).toString());
        assertThat(reply.json().path("name").asText()).isEqualTo("silver");
        assertThat(markers(TODAY)).singleElement().satisfies(m -> {
            assertThat(m.source()).isEqualTo(MarkerSource.MANUAL);
            assertThat(m.executionName())
                    .isEqualTo(evaluations.get(0).path("executionName").asText());
        });
        assertThat(markers(TODAY.minusDays(1))).isEmpty();
        assertThat(markers(TODAY.minusDays(5))).isEmpty();
        assertThat(markerEvents()).hasSize(2).allSatisfy(e -> {
            assertThat(e.traitType()).isEqualTo("source-freshness");
            assertThat(e.details()).containsEntry("reason", "re-registration");
        });
    }

    @Test
    void registeringAPipelineWhoseDaysDidNotStopWritesNothingExtra() {
        api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE);
        runLog(TODAY, null, FailureCategory.VALIDATION_EXHAUSTED);

        ApiFixture.Reply reply = api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().has("evaluations")).isFalse();
        assertThat(markers(TODAY)).isEmpty();
        assertThat(markerEvents()).isEmpty();
    }
}
