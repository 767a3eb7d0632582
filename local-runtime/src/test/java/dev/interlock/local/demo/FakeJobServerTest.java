package dev.interlock.local.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FakeJobServerTest {

    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-03-01T06:00:00Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    private HttpResponse<String> send(String method, URI uri, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(uri)
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void syncJobsRecordTheirTriggersAndCanFailTransiently() throws Exception {
        try (FakeJobServer s = FakeJobServer.start(0, clock, Duration.ofSeconds(30))) {
            s.failNext("silver-etl", 1);
            assertThat(send("POST", URI.create(s.endpoint() + "/jobs/silver-etl"), "{\"date\":\"2026-03-01\"}")
                            .statusCode())
                    .isEqualTo(503);
            assertThat(send("POST", URI.create(s.endpoint() + "/jobs/silver-etl"), "{\"date\":\"2026-03-01\"}")
                            .statusCode())
                    .isEqualTo(200);
            assertThat(s.received())
                    .singleElement()
                    .satisfies(r -> assertThat(r.body()).isEqualTo("{\"date\":\"2026-03-01\"}"));
            assertThat(s.triggersOf("silver-etl")).isEqualTo(1);
        }
    }

    @Test
    void airflowRunsAreRunningUntilTheirDurationPassesThenSucceedOrFail() throws Exception {
        try (FakeJobServer s = FakeJobServer.start(0, clock, Duration.ofSeconds(30))) {
            String started = send("POST", URI.create(s.endpoint() + "/api/v1/dags/gold_etl/dagRuns"), "{\"conf\":{}}")
                    .body();
            String id = FakeJobServer.json(started).get("dag_run_id").asText();
            URI run = URI.create(s.endpoint() + "/api/v1/dags/gold_etl/dagRuns/" + id);
            assertThat(FakeJobServer.json(send("GET", run, null).body())
                            .get("state")
                            .asText())
                    .isEqualTo("running");
            now.set(now.get().plusSeconds(31));
            assertThat(FakeJobServer.json(send("GET", run, null).body())
                            .get("state")
                            .asText())
                    .isEqualTo("success");

            s.failRunsOf("gold_etl", true);
            String failing = FakeJobServer.json(
                            send("POST", URI.create(s.endpoint() + "/api/v1/dags/gold_etl/dagRuns"), "{}")
                                    .body())
                    .get("dag_run_id")
                    .asText();
            now.set(now.get().plusSeconds(31));
            assertThat(FakeJobServer.json(send(
                                            "GET",
                                            URI.create(s.endpoint() + "/api/v1/dags/gold_etl/dagRuns/" + failing),
                                            null)
                                    .body())
                            .get("state")
                            .asText())
                    .isEqualTo("failed");
            assertThat(send("GET", URI.create(s.endpoint() + "/api/v1/dags/other/dagRuns/" + id), null)
                            .statusCode())
                    .isEqualTo(404);
        }
    }
}
