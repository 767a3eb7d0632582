package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.testing.Documents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineRoutesTest {

    private final ApiFixture api = new ApiFixture();

    @Test
    void registeringCreatesThenReplacesAndReadsBackTheStoredDocument() {
        ApiFixture.Reply created = api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE);
        ApiFixture.Reply replaced = api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE);
        ApiFixture.Reply read = api.call("GET", "/pipelines/silver");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.contentType()).isEqualTo("application/json");
        assertThat(replaced.status()).isEqualTo(200);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json()).isEqualTo(created.json());
        assertThat(read.json().get("name").asText()).isEqualTo("silver");
        assertThat(read.json().at("/retry/maxAttempts").asInt()).isEqualTo(3);
        assertThat(read.json().at("/trigger/jobName").asText()).isEqualTo("orders");
    }

    @Test
    void yamlBodiesAreAcceptedByContentTypeAndBySniffing() {
        String yaml = Documents.yaml(InterlockJson.tree(ApiFixture.PIPELINE));

        assertThat(api.call("PUT", "/pipelines/silver", yaml, "application/yaml", Map.of())
                        .status())
                .isEqualTo(201);
        assertThat(api.call("PUT", "/pipelines/silver", yaml, null, Map.of()).status())
                .isEqualTo(200);
        assertThat(api.call("PUT", "/pipelines/silver", yaml, "text/plain; charset=utf-8", Map.of())
                        .status())
                .isEqualTo(200);
        ApiFixture.Reply declaredJson = api.call("PUT", "/pipelines/silver", yaml, "application/json", Map.of());
        assertThat(declaredJson.status()).isEqualTo(400);
        assertThat(declaredJson.errors())
                .containsExactly("$: malformed JSON at line 1, column 5: Unrecognized token 'name': "
                        + "was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
    }

    @Test
    void registrationMaintainsTheDownstreamIndex() {
        api.call("PUT", "/pipelines/gold", ApiFixture.pipeline("gold"));
        assertThat(api.store.cascade().downstreamOf("bronze")).containsExactly("gold");

        api.call("PUT", "/pipelines/silver", rootPipeline("silver"));
        String noUpstream = ApiFixture.pipeline("gold")
                .replace("\"upstreamPipeline\":\"bronze\"", "\"upstreamPipeline\":\"silver\"");
        api.call("PUT", "/pipelines/gold", noUpstream);
        assertThat(api.store.cascade().downstreamOf("bronze")).isEmpty();
        assertThat(api.store.cascade().downstreamOf("silver")).containsExactly("gold");

        assertThat(api.call("DELETE", "/pipelines/gold").status()).isEqualTo(204);
        assertThat(api.store.cascade().downstreamOf("silver")).isEmpty();
        assertThat(api.call("GET", "/pipelines/gold").status()).isEqualTo(404);
        assertThat(api.call("DELETE", "/pipelines/gold").status()).isEqualTo(404);
    }

    /** A pipeline that waits for none. */
    private static String rootPipeline(String name) {
        return ApiFixture.pipeline(name)
                .replace(
                        "\"builtin:upstream-run-log\",\"config\":{\"upstreamPipeline\":\"bronze\"}",
                        "\"builtin:always-pass\"");
    }

    @Test
    void deletingAPipelineOthersWaitForIsAConflictListingThemAndDeletesNothing() {
        assertThat(api.call("PUT", "/pipelines/bronze", rootPipeline("bronze")).status())
                .as("the fixture's upstream, registered again")
                .isEqualTo(200);
        api.call("PUT", "/pipelines/silver", ApiFixture.pipeline("silver"));
        api.call("PUT", "/pipelines/gold", ApiFixture.pipeline("gold"));

        ApiFixture.Reply refused = api.call("DELETE", "/pipelines/bronze");

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().get("detail").asText())
                .contains("deleting pipeline 'bronze'")
                .contains("would break 2 pipeline(s) that use it: gold, silver");
        assertThat(refused.json().path("dependants").findValuesAsText("pipelineId"))
                .containsExactly("gold", "silver");
        assertThat(refused.json().at("/dependants/0/errors/0/path").asText())
                .isEqualTo("$.traits.upstream-dependency.config.upstreamPipeline");
        assertThat(api.call("GET", "/pipelines/bronze").status()).isEqualTo(200);
    }

    @Test
    void forceDeletesAPipelineOthersWaitFor() {
        api.call("PUT", "/pipelines/bronze", rootPipeline("bronze"));
        api.call("PUT", "/pipelines/silver", ApiFixture.pipeline("silver"));

        ApiFixture.Reply badFlag = api.call("DELETE", "/pipelines/bronze", null, null, Map.of("force", "yes"));
        assertThat(badFlag.status()).isEqualTo(400);
        assertThat(badFlag.errors()).containsExactly("query.force: must be true or false, got 'yes'");

        assertThat(api.call("DELETE", "/pipelines/bronze", null, null, Map.of("force", "true"))
                        .status())
                .isEqualTo(204);
        assertThat(api.call("GET", "/pipelines/bronze").status()).isEqualTo(404);
        assertThat(api.call("GET", "/pipelines/silver").status()).isEqualTo(200);
    }

    @Test
    void aCycleIsRefusedAtTheUpstreamFieldNamingIt() {
        api.call("PUT", "/pipelines/silver", ApiFixture.pipeline("silver"));
        String bronzeWaitingForSilver = ApiFixture.pipeline("bronze").replace("\"bronze\"}", "\"silver\"}");

        for (String route : List.of("/pipelines/bronze/validate", "/pipelines/bronze")) {
            ApiFixture.Reply refused =
                    api.call(route.endsWith("validate") ? "POST" : "PUT", route, bronzeWaitingForSilver);
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.errors())
                    .containsExactly("$.traits.upstream-dependency.config.upstreamPipeline: upstream silver would make"
                            + " a cycle: bronze -> silver -> bronze (each waits for the next)");
        }
        assertThat(api.call("GET", "/pipelines/bronze")
                        .json()
                        .at("/traits/upstream-dependency/evaluator")
                        .asText())
                .as("bronze as it was")
                .isEqualTo("builtin:always-pass");
    }

    @Test
    void anUpstreamPipelineThatIsNotRegisteredIsRefusedAtItsFieldAndNothingIsWritten() {
        String waitingForRaw = ApiFixture.pipeline("silver").replace("\"bronze\"}", "\"raw\"}");

        for (String route : List.of("/pipelines/silver/validate", "/pipelines/silver")) {
            ApiFixture.Reply refused = api.call(route.endsWith("validate") ? "POST" : "PUT", route, waitingForRaw);
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.errors())
                    .singleElement()
                    .asString()
                    .startsWith("$.traits.upstream-dependency.config.upstreamPipeline: upstream pipeline raw is not"
                            + " registered: register it first");
        }
        assertThat(api.call("GET", "/pipelines/silver").status()).isEqualTo(404);
        assertThat(api.call("PUT", "/pipelines/raw", rootPipeline("raw")).status())
                .isEqualTo(201);
        assertThat(api.call("PUT", "/pipelines/silver", waitingForRaw).status()).isEqualTo(201);
    }

    @Test
    void anUpstreamScheduleTheRegisteredUpstreamLacksIsRefusedWithItsSchedules() {
        api.call("PUT", "/pipelines/bronze", rootPipeline("bronze"));
        String waitingForNightly = ApiFixture.pipeline("silver")
                .replace(
                        "\"upstreamPipeline\":\"bronze\"",
                        "\"upstreamPipeline\":\"bronze\",\"upstreamSchedule\":\"nightly\"");

        ApiFixture.Reply refused = api.call("PUT", "/pipelines/silver", waitingForNightly);

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.errors())
                .containsExactly("$.traits.upstream-dependency.config.upstreamSchedule: upstream bronze has no schedule"
                        + " 'nightly' (schedules: daily)");
    }

    @Test
    void changingAnUpstreamsSchedulesSoADownstreamWouldWaitInVainIsAConflictNamingIt() {
        api.call("PUT", "/pipelines/bronze", rootPipeline("bronze"));
        assertThat(api.call("PUT", "/pipelines/silver", ApiFixture.pipeline("silver"))
                        .status())
                .isEqualTo(201);
        String hourlyBronze = rootPipeline("bronze")
                .replace("\"trigger\"", "\"schedules\":[{\"name\":\"h\",\"cron\":\"0 * * * *\"}],\"trigger\"");

        for (String route : List.of("/pipelines/bronze/validate", "/pipelines/bronze")) {
            ApiFixture.Reply refused = api.call(route.endsWith("validate") ? "POST" : "PUT", route, hourlyBronze);
            assertThat(refused.status()).isEqualTo(409);
            assertThat(refused.json().path("dependants").findValuesAsText("pipelineId"))
                    .containsExactly("silver");
            assertThat(refused.json().at("/dependants/0/errors/0/path").asText())
                    .isEqualTo("$.traits.upstream-dependency.config.upstreamPipeline");
            assertThat(refused.json().at("/dependants/0/errors/0/message").asText())
                    .contains("upstream bronze has no window daily");
        }
        assertThat(api.call("GET", "/pipelines/bronze").json().path("schedules"))
                .isEmpty();
        String bothSchedules = hourlyBronze.replace("[{\"name\":\"h\"", "[{\"name\":\"daily\"},{\"name\":\"h\"");
        assertThat(api.call("PUT", "/pipelines/bronze", bothSchedules).status()).isEqualTo(200);
    }

    @Test
    void everyProblemOfAPipelineIsListedWithItsPathAndNothingIsWritten() {
        String bad = """
                {"name":"gold","archetype":"nope","retry":{"maxAttempts":"many","backoffSeconds":-1},
                 "trigger":{"type":"http"},"schedules":[{"name":"daily","deadline":"25:99"}]}""";

        ApiFixture.Reply reply = api.call("PUT", "/pipelines/silver", bad);

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.contentType()).isEqualTo("application/problem+json");
        assertThat(reply.json().get("type").asText()).isEqualTo("urn:interlock:problem:invalid-request");
        assertThat(reply.json().get("status").asInt()).isEqualTo(400);
        assertThat(reply.json().get("title").asText()).isEqualTo("The request is invalid");
        assertThat(reply.errorPaths())
                .containsExactlyInAnyOrder(
                        "$.retry.maxAttempts",
                        "$.archetype",
                        "$.trigger.url",
                        "$.retry.backoffSeconds",
                        "$.schedules[0].deadline",
                        "$.name");
        assertThat(reply.errors()).contains("$.name: 'gold' must equal the pipeline id in the path 'silver'");
        assertThat(reply.json().get("detail").asText()).isEqualTo("the pipeline 'silver' has 6 problem(s)");
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void misspeltKeysAreRefusedWithTheKeyMeantAndNothingIsWritten() {
        String misspelt = ApiFixture.PIPELINE.replace(
                "\"trigger\":", "\"schedule\":[{\"name\":\"h06\"}],\"retires\":{\"maxAttempts\":5},\"trigger\":");

        ApiFixture.Reply put = api.call("PUT", "/pipelines/silver", misspelt);
        ApiFixture.Reply validate = api.call("POST", "/pipelines/silver/validate", misspelt);

        assertThat(put.status()).isEqualTo(400);
        assertThat(put.contentType()).isEqualTo("application/problem+json");
        assertThat(put.errors())
                .containsExactly(
                        "$.schedule: unknown field; did you mean 'schedules'?",
                        "$.retires: unknown field; did you mean 'retry'?");
        assertThat(validate.errors()).isEqualTo(put.errors());
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void aCommandTriggerIsNoTriggerTypeAndWritesNothing() {
        String command = ApiFixture.PIPELINE.replace(
                "{\"type\":\"glue\",\"jobName\":\"orders\",\"arguments\":{\"--date\":\"${date}\"}}",
                "{\"type\":\"command\",\"command\":\"./run.sh\"}");

        ApiFixture.Reply refused = api.call("PUT", "/pipelines/silver", command);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.errors())
                .singleElement()
                .asString()
                .startsWith("$.trigger.type: ")
                .contains("lambda");
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void validateAnswersTheNormalisedPipelineAndWritesNothing() {
        ApiFixture.Reply valid = api.call("POST", "/pipelines/silver/validate", ApiFixture.PIPELINE);
        ApiFixture.Reply invalid = api.call("POST", "/pipelines/silver/validate", "{\"name\":\"silver\"}");

        assertThat(valid.status()).isEqualTo(200);
        assertThat(valid.json().get("valid").asBoolean()).isTrue();
        assertThat(valid.json().at("/pipeline/retry/backoffSeconds").asInt()).isEqualTo(30);
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.errorPaths()).containsExactly("$.archetype", "$.trigger");
        assertThat(api.recording.writes()).isEmpty();
        assertThat(api.call("GET", "/pipelines/silver").status()).isEqualTo(404);
    }

    @Test
    void aPipelineMayNameARegisteredArchetype() {
        String archetype = """
                {"name":"house","requiredTraits":[{"type":"ready","evaluator":"builtin:always-pass"}],
                 "readinessRule":{"type":"all-required-pass"}}""";
        String pipeline =
                "{\"name\":\"silver\",\"archetype\":\"house\",\"trigger\":{\"type\":\"lambda\",\"functionName\":\"f\"}}";

        assertThat(api.call("PUT", "/pipelines/silver", pipeline).errors())
                .containsExactly("$.archetype: unknown archetype 'house'");
        assertThat(api.call("PUT", "/archetypes/house", archetype).status()).isEqualTo(201);
        assertThat(api.call("PUT", "/pipelines/silver", pipeline).status()).isEqualTo(201);
    }

    @Test
    void listingPagesThroughEveryPipelineInNameOrder() {
        for (String name : List.of("e5", "a1", "c3", "b2", "d4")) {
            assertThat(api.call("PUT", "/pipelines/" + name, ApiFixture.pipeline(name))
                            .status())
                    .isEqualTo(201);
        }
        List<String> names = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        String cursor = null;
        do {
            Map<String, String> query = cursor == null ? Map.of("limit", "2") : Map.of("limit", "2", "cursor", cursor);
            JsonNode page = api.call("GET", "/pipelines", null, null, query).json();
            page.get("items").forEach(p -> names.add(p.get("name").asText()));
            pageSizes.add(page.get("items").size());
            cursor = page.has("nextCursor") ? page.get("nextCursor").asText() : null;
        } while (cursor != null);

        assertThat(names).containsExactly("a1", "b2", "bronze", "c3", "d4", "e5");
        assertThat(pageSizes).containsExactly(2, 2, 2);
        assertThat(api.call("GET", "/pipelines").json().has("nextCursor")).isFalse();
    }

    @Test
    void badPagingParametersAreNamed() {
        assertThat(api.call("GET", "/pipelines", null, null, Map.of("limit", "0", "cursor", ""))
                        .errors())
                .containsExactly(
                        "query.limit: must be between 1 and 100, got 0",
                        "query.cursor: is not a cursor this listing returned");
        assertThat(api.call("GET", "/pipelines", null, null, Map.of("limit", "ten"))
                        .errors())
                .containsExactly("query.limit: must be a whole number between 1 and 100, got 'ten'");
        assertThat(api.call("GET", "/pipelines", null, null, Map.of("cursor", "bm90LW91cnM"))
                        .errors())
                .containsExactly("query.cursor: invalid page cursor: bm90LW91cnM");
    }

    @Test
    void malformedPathIdsAreRefusedBeforeTheyReachAKey() {
        assertThat(api.call("GET", "/pipelines/a%23b").errors())
                .containsExactly("path.id: 'a#b' is not a pipeline id (^[a-z0-9][a-z0-9._-]{0,62}[a-z0-9]$)");
        assertThat(api.call("GET", "/pipelines/bad%zz").errors())
                .containsExactly("path: malformed percent-escape in path segment 'bad%zz'");
    }
}
