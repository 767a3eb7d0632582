package dev.interlock.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.trigger.AirflowTrigger;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.store.Backoff;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.testing.LocalHttpServer;
import dev.interlock.testing.LocalHttpServer.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Jobs that lie, Airflow's way: a DAG run the REST API reports {@code success} while some of its task instances are
 * {@code failed} or {@code upstream_failed} ({@code GET …/dagRuns/{run}/taskInstances}, against a real HTTP server on
 * 127.0.0.1) is a {@code FALSE_SUCCESS} naming the failed task ids, unless its trigger turned the check off.
 */
class AirflowFalseSuccessTest {

    private static final String DAG_RUN = "/api/v1/dags/orders_dag/dagRuns/interlock__run-42";
    private static final String TASKS = DAG_RUN + "/taskInstances";

    private final LocalHttpServer server = LocalHttpServer.start();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final Environment environment = Environment.of(
            Map.of("INTERLOCK_AIRFLOW_TOKEN", "af-token", "INTERLOCK_SECRET_HOSTS", "INTERLOCK_AIRFLOW_*=127.0.0.1"));
    private final TriggerRunners runners = new TriggerRunners(
            () -> null,
            () -> null,
            () -> null,
            () -> null,
            () -> null,
            new GuardedHttp(
                    new UrlGuard(true, HostResolver.system()),
                    clock,
                    new Backoff(8, Duration.ofMillis(200), Duration.ofSeconds(10), () -> 0.5, clock::advance)),
            OutboundTemplates.create(environment, new AwsClients(environment)),
            clock);

    @AfterEach
    void stop() {
        server.close();
    }

    private String base() {
        return "http://127.0.0.1:" + server.port();
    }

    private Map<String, String> metadata(String check) {
        Map<String, String> metadata = new HashMap<>(Map.of(
                "airflow_url", base(), "airflow_dag_id", "orders_dag", "airflow_dag_run_id", "interlock__run-42"));
        if (check != null) {
            metadata.put("airflow_failed_task_check", check);
        }
        return metadata;
    }

    private RunCheck check(Map<String, String> metadata) {
        return runners.check(new RunCheckRequest(
                "orders",
                "daily",
                "2026-03-01",
                "run-42",
                TriggerType.AIRFLOW,
                metadata,
                Map.of("Authorization", "Bearer ${INTERLOCK_AIRFLOW_TOKEN}")));
    }

    private static String instances(int total, String... idAndState) {
        String list = IntStream.range(0, idAndState.length / 2)
                .mapToObj(i -> "{\"task_id\":\"" + idAndState[2 * i] + "\",\"state\":\"" + idAndState[2 * i + 1]
                        + "\",\"map_index\":" + i + "}")
                .collect(Collectors.joining(","));
        return "{\"task_instances\":[" + list + "],\"total_entries\":" + total + "}";
    }

    private void dagRun(String state) {
        server.answer(
                "GET " + DAG_RUN,
                Answer.json(200, "{\"dag_run_id\":\"interlock__run-42\",\"state\":\"" + state + "\"}"));
    }

    @Test
    void aSuccessWithFailedTaskInstancesIsAFalseSuccessNamingThem() {
        dagRun("success");
        server.answer(
                "GET " + TASKS,
                Answer.json(
                        200,
                        instances(3, "load_orders", "failed", "load_orders", "failed", "publish", "upstream_failed")));

        assertThat(check(metadata("true")))
                .isEqualTo(RunCheck.failed(
                        "airflow dag run interlock__run-42 ended success, but task instances failed: "
                                + "load_orders (failed), publish (upstream_failed)",
                        FailureCategory.FALSE_SUCCESS));
        LocalHttpServer.Request listing = server.requests().get(1);
        assertThat(listing.path()).isEqualTo(TASKS);
        assertThat(listing.query()).isEqualTo("state=failed&state=upstream_failed&limit=100&offset=0");
        assertThat(listing.headers())
                .as("the trigger's headers, as on the poll")
                .containsEntry("Authorization", "Bearer af-token")
                .doesNotContainKey("Content-Type");
    }

    @Test
    void aSuccessWithoutFailedTaskInstancesStands() {
        dagRun("success");
        server.answer("GET " + TASKS, Answer.json(200, instances(0)));
        assertThat(check(metadata("true"))).isEqualTo(RunCheck.succeeded("success"));
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void taskStatesTheFilterLetThroughDoNotCount() {
        // An Airflow that ignores the state filter answers every task instance: only the failed ones count.
        dagRun("success");
        server.answer(
                "GET " + TASKS,
                Answer.json(200, instances(3, "extract", "success", "audit", "skipped", "load", "removed")));
        assertThat(check(metadata("true"))).isEqualTo(RunCheck.succeeded("success"));
    }

    @Test
    void theCheckOffOrNotRecordedAsksNothingAndTheSuccessStands() {
        dagRun("success");
        server.answer("GET " + TASKS, Answer.json(200, instances(1, "load_orders", "failed")));
        assertThat(check(metadata("false"))).isEqualTo(RunCheck.succeeded("success"));
        assertThat(check(metadata(null)))
                .as("a run started before the check existed")
                .isEqualTo(RunCheck.succeeded("success"));
        assertThat(server.requests()).extracting(LocalHttpServer.Request::path).containsOnly(DAG_RUN);
    }

    @Test
    void runningAndFailedRunsAreNotListed() {
        dagRun("running");
        assertThat(check(metadata("true"))).isEqualTo(RunCheck.running("running"));
        dagRun("failed");
        assertThat(check(metadata("true"))).isEqualTo(RunCheck.failed("failed", FailureCategory.TRANSIENT));
        assertThat(server.requests()).extracting(LocalHttpServer.Request::path).containsOnly(DAG_RUN);
    }

    @Test
    void theListingIsReadPageByPage() {
        dagRun("success");
        String[] firstPage = IntStream.range(0, 100)
                .mapToObj(i -> List.of("task_" + i, "success"))
                .flatMap(List::stream)
                .toArray(String[]::new);
        server.answer(
                "GET " + TASKS,
                Answer.json(200, instances(101, firstPage)),
                Answer.json(200, instances(101, "late_task", "failed")));

        assertThat(check(metadata("true")).message()).endsWith("task instances failed: late_task (failed)");
        assertThat(server.requests())
                .filteredOn(r -> r.path().equals(TASKS))
                .extracting(LocalHttpServer.Request::query)
                .containsExactly(
                        "state=failed&state=upstream_failed&limit=100&offset=0",
                        "state=failed&state=upstream_failed&limit=100&offset=100");
    }

    @Test
    void manyFailedTasksAreNamedUpToTenAndCounted() {
        dagRun("success");
        String[] failed = IntStream.range(0, 12)
                .mapToObj(i -> List.of("t" + i, "failed"))
                .flatMap(List::stream)
                .toArray(String[]::new);
        server.answer("GET " + TASKS, Answer.json(200, instances(12, failed)));
        assertThat(check(metadata("true")).message())
                .contains("t0 (failed), t1 (failed)")
                .contains("t9 (failed) and 2 more")
                .doesNotContain("t10");
    }

    @Test
    void aListingThatCannotBeReadIsNoSuccess() {
        dagRun("success");
        server.answer("GET " + TASKS, Answer.status(503, "restarting"));
        RunCheck unavailable = check(metadata("true"));
        assertThat(unavailable.state()).as("asked again at the next poll").isEqualTo(RunCheckState.RUNNING);
        assertThat(unavailable.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);

        server.answer("GET " + TASKS, Answer.json(200, "{\"total_entries\":0}"));
        assertThat(check(metadata("true")).state()).isEqualTo(RunCheckState.RUNNING);

        server.answer("GET " + TASKS, Answer.status(403, "forbidden"));
        assertThat(check(metadata("true")))
                .isEqualTo(RunCheck.failed(
                        "GET " + base() + TASKS + " returned status 403: forbidden", FailureCategory.PERMANENT));
    }

    @Test
    void theTriggerRecordsWhetherItsRunIsChecked() {
        server.answer(
                "POST /api/v1/dags/orders_dag/dagRuns",
                Answer.json(200, "{\"dag_run_id\":\"interlock__run-42\",\"state\":\"queued\"}"));
        TriggerRequest on = new TriggerRequest(
                "orders",
                "daily",
                "2026-03-01",
                "run-42",
                new AirflowTrigger(base(), "orders_dag", null, null, null, 5));
        assertThat(runners.start(on).metadata()).containsEntry("airflow_failed_task_check", "true");
        TriggerRequest off = new TriggerRequest(
                "orders",
                "daily",
                "2026-03-01",
                "run-42",
                new AirflowTrigger(base(), "orders_dag", null, null, null, 5, false));
        assertThat(runners.start(off).metadata()).containsEntry("airflow_failed_task_check", "false");
    }
}
