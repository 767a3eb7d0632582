package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline graph stays whole through the public API and the CLI: a cycle and an upstream schedule that never meets
 * are refused at registration (of the downstream, or of the upstream that changes), deleting a pipeline others wait for is a 409 naming them unless forced, {@code apply}
 * registers a directory's upstreams first, and {@code graph} shows who waits for whom.
 */
class CheckedGraphEndToEndTest extends EndToEnd {

    private static final String UPSTREAM_PATH = "$.traits.upstream-dependency.config.upstreamPipeline";

    private String pipeline(String name, String upstreamConfig, String schedules) {
        return """
                name: %1$s
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "%3$s", config: %4$s}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                schedules: %5$s
                """.formatted(
                        name,
                        jobs.endpoint(),
                        upstreamConfig.equals("{}") ? "builtin:always-pass" : "builtin:upstream-run-log",
                        upstreamConfig,
                        schedules);
    }

    private String waitingFor(String name, String upstream) {
        return pipeline(name, "{upstreamPipeline: " + upstream + "}", "[]");
    }

    private String endpoint() {
        return rt.apiEndpoint().toString();
    }

    @Test
    void aCycleIsRefusedAtValidateAndRegisterNamingIt() {
        putPipeline(pipeline("cg-gold", "{}", "[]"));
        putPipeline(waitingFor("cg-bronze", "cg-gold"));
        putPipeline(waitingFor("cg-silver", "cg-bronze"));

        for (String method : new String[] {"POST", "PUT"}) {
            Response refused = call(
                    method,
                    "/pipelines/cg-gold" + (method.equals("POST") ? "/validate" : ""),
                    "application/yaml",
                    waitingFor("cg-gold", "cg-silver"));
            assertThat(refused.status()).as(refused.raw()).isEqualTo(400);
            assertThat(refused.body().at("/errors/0/path").asText()).isEqualTo(UPSTREAM_PATH);
            assertThat(refused.body().at("/errors/0/message").asText())
                    .contains("cg-gold -> cg-silver -> cg-bronze -> cg-gold");
        }
        Response self = call("PUT", "/pipelines/cg-solo", "application/yaml", waitingFor("cg-solo", "cg-solo"));
        assertThat(self.status()).isEqualTo(400);
        assertThat(self.body().at("/errors/0/message").asText()).contains("cycle cg-solo -> cg-solo");
        assertThat(expect(200, "GET", "/pipelines/cg-gold", null, null)
                        .at("/traits/upstream-dependency/evaluator")
                        .asText())
                .as("cg-gold as it was")
                .isEqualTo("builtin:always-pass");
    }

    @Test
    void anUnknownUpstreamIsRefusedByTheApiAndValidateButAcceptedWhenItArrivesInTheSameApply(@TempDir Path dir)
            throws Exception {
        for (String method : new String[] {"POST", "PUT"}) {
            Response refused = call(
                    method,
                    "/pipelines/uk-silver" + (method.equals("POST") ? "/validate" : ""),
                    "application/yaml",
                    waitingFor("uk-silver", "uk-bronz"));
            assertThat(refused.status()).as(refused.raw()).isEqualTo(400);
            assertThat(refused.body().at("/errors/0/path").asText()).isEqualTo(UPSTREAM_PATH);
            assertThat(refused.body().at("/errors/0/message").asText())
                    .startsWith("upstream pipeline uk-bronz is not registered: register it first");
        }
        expect(404, "GET", "/pipelines/uk-silver", null, null);

        Path alone = Files.createDirectories(dir.resolve("alone"));
        Files.writeString(alone.resolve("silver.yaml"), waitingFor("uk-silver", "uk-bronz"));
        Cli validate = cli("validate", "-f", alone.toString(), "--endpoint", endpoint(), "--no-sigv4");
        assertThat(validate.code()).isEqualTo(1);
        assertThat(validate.err()).contains("silver.yaml").contains("upstream pipeline uk-bronz is not registered");
        Cli apply = cli("apply", "-f", alone.toString(), "--endpoint", endpoint(), "--no-sigv4");
        assertThat(apply.code()).isEqualTo(1);
        expect(404, "GET", "/pipelines/uk-silver", null, null);

        Path both = Files.createDirectories(dir.resolve("both"));
        Files.writeString(both.resolve("a-silver.yaml"), waitingFor("uk-silver", "uk-bronze"));
        Files.writeString(both.resolve("b-bronze.yaml"), pipeline("uk-bronze", "{}", "[]"));
        Cli checked = cli("validate", "-f", both.toString(), "--endpoint", endpoint(), "--no-sigv4");
        assertThat(checked.code()).as(checked.err()).isZero();
        Cli applied = cli("apply", "-f", both.toString(), "--endpoint", endpoint(), "--no-sigv4");
        assertThat(applied.code()).as(applied.err()).isZero();
        assertThat(applied.out()).contains("pipeline uk-bronze created").contains("pipeline uk-silver created");
        expect(200, "GET", "/pipelines/uk-silver", null, null);
    }

    @Test
    void anUpstreamScheduleTheUpstreamLacksIsRefusedWithItsSchedules() {
        putPipeline(pipeline("sc-hourly", "{}", "[{name: hourly, cron: '0 * * * *', timezone: UTC}]"));

        Response named = call(
                "PUT",
                "/pipelines/sc-named",
                "application/yaml",
                pipeline("sc-named", "{upstreamPipeline: sc-hourly, upstreamSchedule: daily}", "[]"));
        assertThat(named.status()).as(named.raw()).isEqualTo(400);
        assertThat(named.body().at("/errors/0/path").asText())
                .isEqualTo("$.traits.upstream-dependency.config.upstreamSchedule");
        assertThat(named.body().at("/errors/0/message").asText())
                .isEqualTo("upstream sc-hourly has no schedule 'daily' (schedules: hourly.HHMM)");

        Response defaulted =
                call("PUT", "/pipelines/sc-daily", "application/yaml", waitingFor("sc-daily", "sc-hourly"));
        assertThat(defaulted.status()).isEqualTo(400);
        assertThat(defaulted.body().at("/errors/0/path").asText()).isEqualTo(UPSTREAM_PATH);
        assertThat(defaulted.body().at("/errors/0/message").asText()).contains("has no window daily");

        putPipeline(pipeline("sc-noon", "{upstreamPipeline: sc-hourly, upstreamSchedule: hourly.1200}", "[]"));

        Response stranding =
                call("PUT", "/pipelines/sc-hourly", "application/yaml", pipeline("sc-hourly", "{}", "[{name: daily}]"));
        assertThat(stranding.status()).as(stranding.raw()).isEqualTo(409);
        assertThat(stranding.body().path("dependants").findValuesAsText("pipelineId"))
                .containsExactly("sc-noon");
        assertThat(stranding.body().at("/dependants/0/errors/0/message").asText())
                .contains("sc-hourly has no schedule 'hourly.1200'");
    }

    @Test
    void deletingAnUpstreamIsAConflictNamingItsDownstreamsUnlessForcedThroughTheApiAndTheCli() {
        putPipeline(pipeline("del-bronze", "{}", "[]"));
        putPipeline(waitingFor("del-silver", "del-bronze"));
        putPipeline(waitingFor("del-gold", "del-bronze"));

        JsonNode conflict = expect(409, "DELETE", "/pipelines/del-bronze", null, null);
        assertThat(conflict.path("dependants").findValuesAsText("pipelineId"))
                .containsExactly("del-gold", "del-silver");
        assertThat(conflict.at("/dependants/0/errors/0/path").asText()).isEqualTo(UPSTREAM_PATH);

        Cli refused = cli("delete", "del-bronze", "--endpoint", endpoint(), "--no-sigv4");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err())
                .contains("HTTP 409")
                .contains("del-gold, del-silver")
                .contains("del-silver waits for it at " + UPSTREAM_PATH)
                .contains("--force");
        expect(200, "GET", "/pipelines/del-bronze", null, null);

        Cli forced = cli("delete", "del-bronze", "--force", "--endpoint", endpoint(), "--no-sigv4");
        assertThat(forced.code()).as(forced.err()).isZero();
        assertThat(forced.out()).contains("pipeline del-bronze deleted");
        expect(404, "GET", "/pipelines/del-bronze", null, null);

        expect(204, "DELETE", "/pipelines/del-gold", null, null);
    }

    @Test
    void applyRegistersUpstreamsFirstRefusesACycleAndGraphShowsTheWholeGraph(@TempDir Path dir) throws Exception {
        Path chain = Files.createDirectories(dir.resolve("chain"));
        Files.writeString(chain.resolve("a-report.yaml"), waitingFor("ap-report", "ap-mart"));
        Files.writeString(chain.resolve("b-mart.yaml"), waitingFor("ap-mart", "ap-raw"));
        Files.writeString(chain.resolve("c-raw.yaml"), pipeline("ap-raw", "{}", "[]"));
        Path loop = Files.createDirectories(dir.resolve("loop"));
        Files.writeString(loop.resolve("ping.yaml"), waitingFor("ap-ping", "ap-pong"));
        Files.writeString(loop.resolve("pong.yaml"), waitingFor("ap-pong", "ap-ping"));

        Cli applied = cli("apply", "-f", chain.toString(), "--endpoint", endpoint(), "--no-sigv4");
        assertThat(applied.code()).as(applied.err()).isZero();
        assertThat(applied.out().indexOf("pipeline ap-raw created"))
                .isNotNegative()
                .isLessThan(applied.out().indexOf("pipeline ap-mart created"));
        assertThat(applied.out().indexOf("pipeline ap-mart created"))
                .isLessThan(applied.out().indexOf("pipeline ap-report created"));

        Cli cycle = cli("apply", "-f", loop.toString(), "--endpoint", endpoint(), "--no-sigv4");
        assertThat(cycle.code()).isEqualTo(1);
        assertThat(cycle.err()).contains("cycle: ap-ping -> ap-pong -> ap-ping").contains("nothing was registered");
        expect(404, "GET", "/pipelines/ap-ping", null, null);

        Cli graph = cli("graph", "--endpoint", endpoint(), "--no-sigv4");
        assertThat(graph.code()).as(graph.err()).isZero();
        assertThat(graph.out().lines())
                .anySatisfy(l -> assertThat(l).matches("ap-mart\\s+ap-raw\\s+ap-report"))
                .anySatisfy(l -> assertThat(l).matches("ap-raw\\s+-\\s+ap-mart"))
                .anySatisfy(l -> assertThat(l).matches("ap-report\\s+ap-mart\\s+-"));
    }
}
