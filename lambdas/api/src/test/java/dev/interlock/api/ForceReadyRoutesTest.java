package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.store.PageRequest;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Forcing a day ready through the API: recorded for that day only, audited, its evaluation started; bad input named. */
class ForceReadyRoutesTest {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 10);

    private final ApiFixture api = new ApiFixture();

    @BeforeEach
    void register() {
        assertThat(api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE).status())
                .isEqualTo(201);
        api.recording.clear();
    }

    private List<Event> events(EventKind kind) {
        return api.store.events().read("silver", PageRequest.first(100)).items().stream()
                .filter(e -> e.kind() == kind)
                .toList();
    }

    @Test
    void aForceIsRecordedForThatDayAuditedAndStartsItsEvaluation() {
        ApiFixture.Reply forced = api.call(
                "POST", "/pipelines/silver/days/" + DAY + "/force-ready", "{\"reason\":\"rows checked by hand\"}");

        assertThat(forced.status()).as(forced.json().toString()).isEqualTo(202);
        assertThat(forced.json().path("scheduleId").asText()).isEqualTo("daily");
        assertThat(forced.json().path("executionName").asText()).startsWith("silver_2026-03-10_daily");
        assertThat(forced.json().path("expiresAt").asText()).isEqualTo("2026-03-12T00:00:00.000Z");
        assertThat(api.store.forces().get("silver", DAY, "daily")).hasValueSatisfying(f -> {
            assertThat(f.reason()).isEqualTo("rows checked by hand");
            assertThat(f.forcedAt()).isEqualTo(ApiFixture.NOW);
        });
        assertThat(api.store.forces().get("silver", DAY.minusDays(1), "daily")).isEmpty();
        assertThat(events(EventKind.FORCED_READY))
                .singleElement()
                .satisfies(e -> assertThat(e.details())
                        .containsEntry("reason", "rows checked by hand")
                        .containsEntry("expiresAt", "2026-03-12T00:00:00.000Z"));
        assertThat(api.store.cascade().markers("silver", DAY)).hasSize(1);
    }

    @Test
    void badFieldsAreNamedAndWriteNothing() {
        ApiFixture.Reply bad = api.call(
                "POST",
                "/pipelines/silver/days/" + DAY + "/force-ready",
                "{\"reason\":\"\",\"expiresAt\":\"2026-03-10T08:00:00Z\",\"scheduleId\":\"hourly\"}");

        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().path("errors").findValuesAsText("path"))
                .contains("$.reason", "$.expiresAt", "$.scheduleId");
        assertThat(api.call("POST", "/pipelines/silver/days/2026-13-01/force-ready", "{\"reason\":\"x\"}")
                        .json()
                        .path("errors")
                        .findValuesAsText("path"))
                .contains("path.date");
        assertThat(api.call("POST", "/pipelines/nobody/days/" + DAY + "/force-ready", "{\"reason\":\"x\"}")
                        .status())
                .isEqualTo(404);
        assertThat(api.store.forces().get("silver", DAY, "daily")).isEmpty();
        assertThat(events(EventKind.FORCED_READY)).isEmpty();
    }
}
