package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertRoutesTest {

    private final ApiFixture api = new ApiFixture();

    private void sent(String pipeline, AlertKind kind, Instant at) {
        api.store
                .alertHistory()
                .record(new Alert(
                        AlertLevel.ERROR,
                        kind,
                        pipeline,
                        "daily",
                        LocalDate.parse("2026-03-10"),
                        kind.wireName() + " " + pipeline,
                        null,
                        at));
    }

    @Test
    void alertsAreListedNewestFirstFilteredAndPaged() {
        sent("silver", AlertKind.SLA_MISSED, ApiFixture.NOW.minusSeconds(300));
        sent("gold", AlertKind.EXECUTION_ERROR, ApiFixture.NOW.minusSeconds(200));
        sent("silver", AlertKind.EXECUTION_ERROR, ApiFixture.NOW.minusSeconds(100));

        JsonNode all = api.call("GET", "/alerts").json();
        assertThat(all.path("items"))
                .extracting(a ->
                        a.path("kind").asText() + " " + a.path("pipelineId").asText())
                .containsExactly("EXECUTION_ERROR silver", "EXECUTION_ERROR gold", "SLA_MISSED silver");
        assertThat(all.path("items").get(0).path("level").asText()).isEqualTo("error");
        assertThat(all.has("nextCursor")).isFalse();

        assertThat(api.call("GET", "/alerts", null, null, Map.of("pipeline", "silver", "kind", "SLA_MISSED"))
                        .json()
                        .path("items"))
                .extracting(a -> a.path("message").asText())
                .containsExactly("SLA_MISSED silver");
        assertThat(api.call(
                                "GET",
                                "/alerts",
                                null,
                                null,
                                Map.of("since", ApiFixture.NOW.minusSeconds(150).toString()))
                        .json()
                        .path("items"))
                .hasSize(1);

        JsonNode first =
                api.call("GET", "/alerts", null, null, Map.of("limit", "2")).json();
        assertThat(first.path("items")).hasSize(2);
        JsonNode second = api.call(
                        "GET",
                        "/alerts",
                        null,
                        null,
                        Map.of("limit", "2", "cursor", first.path("nextCursor").asText()))
                .json();
        assertThat(second.path("items"))
                .extracting(a -> a.path("kind").asText())
                .containsExactly("SLA_MISSED");
        assertThat(second.has("nextCursor")).isFalse();
    }

    @Test
    void aBadFilterIsA400NamingEachParameter() {
        ApiFixture.Reply bad = api.call(
                "GET",
                "/alerts",
                null,
                null,
                Map.of("kind", "LATE", "since", "yesterday", "pipeline", "Bad#Id", "limit", "0"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.errors())
                .extracting(e -> e.substring(0, e.indexOf(':')))
                .containsExactlyInAnyOrder("query.kind", "query.since", "query.pipeline", "query.limit");
        assertThat(api.call("GET", "/alerts", null, null, Map.of("since", "2026-03-10"))
                        .status())
                .isEqualTo(200);
    }
}
