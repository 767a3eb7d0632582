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

    @Test
    void anAirflowRunGivenFailedTasksSucceedsWhileItsTaskInstancesSayOtherwise() throws Exception {
        try (FakeJobServer s = FakeJobServer.start(0, clock, Duration.ofSeconds(30))) {
            URI dagRuns = URI.create(s.endpoint() + "/api/v1/dags/gold_etl/dagRuns");
            String conf =
                    "{\"dag_run_id\":\"r1\",\"conf\":{\"--fake-failed-tasks\":\"load, publish:upstream_failed\"}}";
            assertThat(send("POST", dagRuns, conf).statusCode()).isEqualTo(200);
            URI tasks = URI.create(dagRuns + "/r1/taskInstances");
            assertThat(FakeJobServer.json(send("GET", tasks, null).body()).path("task_instances"))
                    .extracting(t ->
                            t.path("task_id").asText() + "=" + t.path("state").asText())
                    .containsExactly("load=running", "publish=running", "done=running");
            now.set(now.get().plusSeconds(31));
            assertThat(FakeJobServer.json(send("GET", URI.create(dagRuns + "/r1"), null)
                                    .body())
                            .path("state")
                            .asText())
                    .isEqualTo("success");
            var failed = FakeJobServer.json(send("GET", URI.create(tasks + "?state=failed&state=upstream_failed"), null)
                    .body());
            assertThat(failed.path("task_instances"))
                    .extracting(t ->
                            t.path("task_id").asText() + "=" + t.path("state").asText())
                    .containsExactly("load=failed", "publish=upstream_failed");
            assertThat(failed.path("total_entries").asInt()).isEqualTo(2);
            assertThat(FakeJobServer.json(send("GET", URI.create(tasks + "?state=failed&limit=1&offset=1"), null)
                                    .body())
                            .path("task_instances"))
                    .as("past the only failed one")
                    .isEmpty();
            assertThat(s.taskInstancePolls()).hasSize(3);

            var bad = send("POST", dagRuns, "{\"conf\":{\"--fake-failed-tasks\":\"load:skipped\"}}");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("--fake-failed-tasks").contains("load:skipped");
        }
    }
}
