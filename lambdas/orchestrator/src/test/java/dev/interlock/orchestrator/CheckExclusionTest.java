package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckExclusionTest {

    private final Fixture f = new Fixture();

    @Test
    void aPipelineThatIsNotRegisteredIsAnError() {
        JsonNode response = f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("pipeline orders not found");
        assertThat(response.get("payload").get("excluded").asBoolean()).isFalse();
    }

    @Test
    void aDayWithoutExclusionsProceeds() {
        f.register("exclusions:\n  days: [saturday, sunday]\n  dates: ['2026-12-25']\n");

        JsonNode response = f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("excluded").asBoolean()).isFalse();
        assertThat(f.events(EventKind.EXCLUDED)).isEmpty();
    }

    @Test
    void anInlineWeekdayExcludesAndRecordsAnEvent() {
        f.register("exclusions:\n  days: [Monday]\n");

        JsonNode response = f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText()).isEqualTo("excluded day (excluded: monday)");
        assertThat(response.get("payload").get("excluded").asBoolean()).isTrue();
        assertThat(f.events(EventKind.EXCLUDED)).hasSize(1);
    }

    @Test
    void anInlineDateExcludes() {
        f.register("exclusions:\n  dates: ['2026-03-02']\n");

        JsonNode response = f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText()).isEqualTo("excluded day (excluded: 2026-03-02)");
    }

    @Test
    void aNamedCalendarFromTheTableExcludes() {
        f.provider.calendars().put(new Calendar("holidays", "company holidays", List.of(), List.of("2026-03-02")));
        f.register("exclusions:\n  calendar: holidays\n");

        JsonNode response = f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText())
                .isEqualTo("excluded day (excluded by calendar holidays: 2026-03-02)");
    }

    @Test
    void aCalendarThatIsNotRegisteredIsAnErrorRatherThanARunOnAnExcludedDay() {
        f.register("exclusions:\n  calendar: holidays\n");

        JsonNode response = f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("exclusions.calendar 'holidays' is not registered");
        assertThat(response.get("payload").get("excluded").asBoolean()).isFalse();
    }

    @Test
    void exclusionIsJudgedOnTheExecutionDateNotTheWallClock() {
        f.register("exclusions:\n  days: [saturday]\n");
        f.clock.set(Instant.parse("2026-03-07T12:00:00Z")); // a Saturday: the replay of Monday still runs

        JsonNode monday = f.call(f.request(OrchestratorAction.CHECK_EXCLUSION));
        var saturdayRequest = f.request(OrchestratorAction.CHECK_EXCLUSION);
        saturdayRequest.put("date", "2026-03-07");
        f.clock.set(Fixture.T0); // a Monday wall clock does not un-exclude a Saturday execution
        JsonNode saturday = f.call(saturdayRequest);

        assertThat(monday.get("result").asText()).isEqualTo("proceed");
        assertThat(saturday.get("result").asText()).isEqualTo("skip");
    }
}
