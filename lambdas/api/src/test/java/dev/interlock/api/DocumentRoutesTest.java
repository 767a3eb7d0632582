package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.store.Provider;
import dev.interlock.store.StoreException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DocumentRoutesTest {

    private static final String ARCHETYPE = """
            name: house
            description: our own
            requiredTraits:
              - type: ready
                evaluator: builtin:always-pass
                defaultTtl: 60
            readinessRule: {type: all-required-pass}
            """;

    private final ApiFixture api = new ApiFixture();

    private static List<String> names(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.get("items").forEach(a -> names.add(a.get("name").asText()));
        return names;
    }

    @Test
    void archetypesListTheBundledOnesAndRegisteredOnesInNameOrder() {
        assertThat(api.store.pipelines().delete("bronze"))
                .as("no pipeline uses the archetype overridden below")
                .isTrue();
        assertThat(names(api.call("GET", "/archetypes").json()))
                .containsExactly("batch-ingestion", "ml-feature-pipeline", "streaming-enrichment");

        assertThat(api.call("PUT", "/archetypes/house", ARCHETYPE, "application/yaml", Map.of())
                        .status())
                .isEqualTo(201);
        String override = ARCHETYPE.replace("name: house", "name: batch-ingestion");
        assertThat(api.call("PUT", "/archetypes/batch-ingestion", override, "application/yaml", Map.of())
                        .status())
                .isEqualTo(201);

        JsonNode list = api.call("GET", "/archetypes").json();
        assertThat(names(list))
                .containsExactly("batch-ingestion", "house", "ml-feature-pipeline", "streaming-enrichment");
        assertThat(list.get("items").get(0).get("description").asText()).isEqualTo("our own");
        assertThat(list.has("nextCursor")).isFalse();
        assertThat(api.call("GET", "/archetypes/house")
                        .json()
                        .at("/requiredTraits/0/defaultTtl")
                        .asInt())
                .isEqualTo(60);
        assertThat(api.call("GET", "/archetypes/streaming-enrichment").status()).isEqualTo(200);
        assertThat(api.call("GET", "/archetypes/nope").status()).isEqualTo(404);
    }

    @Test
    void archetypeProblemsAreAllListed() {
        ApiFixture.Reply reply = api.call(
                "PUT",
                "/archetypes/house",
                "{\"name\":\"other\",\"requiredTraits\":[{\"type\":\"x\",\"defaultTimeout\":\"slow\"}]}");

        assertThat(reply.errors())
                .containsExactly(
                        "$.requiredTraits[0].defaultTimeout: expected a whole number, got text \"slow\"",
                        "$.readinessRule.type: readinessRule.type is required; allowed: all-required-pass",
                        "$.name: 'other' must equal the archetype name in the path 'house'");
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void calendarsAreRegisteredAndRead() {
        String calendar = "{\"name\":\"uk-holidays\",\"days\":[\"saturday\"],\"dates\":[\"2026-12-25\"]}";

        assertThat(api.call("PUT", "/calendars/uk-holidays", calendar).status()).isEqualTo(201);
        assertThat(api.call("PUT", "/calendars/uk-holidays", calendar).status()).isEqualTo(200);
        assertThat(api.call("GET", "/calendars/uk-holidays").json()).isEqualTo(InterlockJson.tree(calendar));
        assertThat(api.call("GET", "/calendars/us-holidays").status()).isEqualTo(404);
        assertThat(api.call("PUT", "/calendars/uk-holidays", "{\"name\":\"uk-holidays\",\"dates\":[\"25/12/2026\"]}")
                        .errors())
                .containsExactly("$.dates[0]: '25/12/2026' is not a date YYYY-MM-DD");
    }

    @Test
    void archetypesAndCalendarsAreValidatedWithoutBeingWritten() {
        ApiFixture.Reply archetype =
                api.call("POST", "/archetypes/house/validate", ARCHETYPE, "application/yaml", Map.of());
        ApiFixture.Reply calendar = api.call(
                "POST", "/calendars/uk-holidays/validate", "{\"name\":\"uk-holidays\",\"dates\":[\"2026-12-25\"]}");
        ApiFixture.Reply badArchetype = api.call(
                "POST",
                "/archetypes/house/validate",
                ARCHETYPE.replace("requiredTraits:", "requiredTrait:"),
                "application/yaml",
                Map.of());
        ApiFixture.Reply badCalendar = api.call(
                "POST", "/calendars/uk-holidays/validate", "{\"name\":\"uk-holidays\",\"date\":[\"2026-12-25\"]}");

        assertThat(archetype.status()).isEqualTo(200);
        assertThat(archetype.json().get("valid").asBoolean()).isTrue();
        assertThat(archetype.json().at("/archetype/requiredTraits/0/defaultTtl").asInt())
                .isEqualTo(60);
        assertThat(calendar.status()).isEqualTo(200);
        assertThat(calendar.json().at("/calendar/dates/0").asText()).isEqualTo("2026-12-25");
        assertThat(badArchetype.status()).isEqualTo(400);
        assertThat(badArchetype.errors())
                .containsExactly("$.requiredTrait: unknown field; did you mean 'requiredTraits'?");
        assertThat(badCalendar.errors()).containsExactly("$.date: unknown field; did you mean 'dates'?");
        assertThat(api.recording.writes()).isEmpty();
        assertThat(api.call("GET", "/archetypes/house").status()).isEqualTo(404);
        assertThat(api.call("GET", "/calendars/uk-holidays").status()).isEqualTo(404);
    }

    @Test
    void sensorValuesAreStoredWithTheServerTime() {
        ApiFixture.Reply reply =
                api.call("PUT", "/sensors/orders-count", "{\"count\":1500,\"complete\":true,\"parts\":[\"a\"]}");

        SensorValue expected = new SensorValue(
                        "orders-count", Map.of("count", 1500, "complete", true, "parts", List.of("a")), ApiFixture.NOW)
                .atRevision(1);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(api.store.sensors().get("orders-count")).contains(expected);
        JsonNode answer = reply.json();
        assertThat(answer.path("name").asText()).isEqualTo("orders-count");
        assertThat(answer.path("fields"))
                .isEqualTo(InterlockJson.tree(InterlockJson.write(expected)).path("fields"));
        assertThat(answer.path("updatedAt").asText()).isEqualTo("2026-03-10T09:00:00.000Z");
        assertThat(answer.path("revision").asLong()).isEqualTo(1);
        assertThat(answer.path("changed").asBoolean()).isTrue();
        assertThat(answer.path("evaluations")).isEmpty();
    }

    // ---- references: archetypes and calendars a pipeline names ----

    @Test
    void aPipelineNamingAnUnregisteredCalendarIsRefusedAndNothingIsWritten() {
        String typo = ApiFixture.pipeline("typo")
                .replace("\"trigger\"", "\"exclusions\":{\"calendar\":\"uk-2062\"},\"trigger\"");
        api.recording.clear();

        ApiFixture.Reply put = api.call("PUT", "/pipelines/typo", typo);
        ApiFixture.Reply validate = api.call("POST", "/pipelines/typo/validate", typo);

        assertThat(put.status()).isEqualTo(400);
        assertThat(put.errorPaths()).containsExactly("$.exclusions.calendar");
        assertThat(validate.errorPaths()).containsExactly("$.exclusions.calendar");
        assertThat(api.recording.writes()).isEmpty();
        assertThat(api.store.pipelines().get("typo")).isEmpty();

        assertThat(api.call("PUT", "/calendars/uk-2062", "{\"name\":\"uk-2062\",\"dates\":[\"2062-12-25\"]}")
                        .status())
                .isEqualTo(201);
        assertThat(api.call("PUT", "/pipelines/typo", typo).status()).isEqualTo(201);
    }

    @Test
    void anArchetypeChangeThatBreaksAUserIs409ListingItAndWritesNothing() {
        String archetype =
                "{\"name\":\"house\",\"requiredTraits\":[{\"type\":\"ready\",\"evaluator\":\"builtin:always-pass\"}],"
                        + "\"optionalTraits\":[{\"type\":\"quality\"}],\"readinessRule\":{\"type\":\"all-required-pass\"}}";
        assertThat(api.call("PUT", "/archetypes/house", archetype).status()).isEqualTo(201);
        String user =
                "{\"name\":\"tenant\",\"archetype\":\"house\",\"traits\":{\"quality\":{\"evaluator\":\"builtin:always-pass\"}},"
                        + "\"trigger\":{\"type\":\"http\",\"url\":\"https://jobs.example.com/t\"}}";
        assertThat(api.call("PUT", "/pipelines/tenant", user).status()).isEqualTo(201);
        api.recording.clear();

        ApiFixture.Reply refused = api.call(
                "PUT", "/archetypes/house", archetype.replace(",\"optionalTraits\":[{\"type\":\"quality\"}]", ""));

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.contentType()).isEqualTo("application/problem+json");
        assertThat(refused.json().path("detail").asText()).contains("tenant");
        assertThat(refused.json().path("dependants").get(0).path("pipelineId").asText())
                .isEqualTo("tenant");
        assertThat(refused.json()
                        .path("dependants")
                        .get(0)
                        .path("errors")
                        .get(0)
                        .path("path")
                        .asText())
                .isEqualTo("$.traits.quality");
        assertThat(api.recording.writes()).isEmpty();
        assertThat(api.store.archetypes().get("house").orElseThrow().optionalTraits())
                .hasSize(1);
    }

    @Test
    void aProblemAUserAlreadyHadDoesNotBlockAChange() {
        // Registered before calendars were checked: a calendar this user names does not exist.
        api.store
                .pipelines()
                .put(InterlockJson.read(
                        ApiFixture.pipeline("legacy")
                                .replace("\"trigger\"", "\"exclusions\":{\"calendar\":\"gone\"},\"trigger\""),
                        dev.interlock.model.pipeline.PipelineConfig.class));
        String calendar = "{\"name\":\"gone\",\"days\":[\"sunday\"]}";
        assertThat(api.call("PUT", "/calendars/gone", calendar).status()).isEqualTo(201);
        assertThat(api.call("DELETE", "/calendars/gone").status()).isEqualTo(409);
    }

    @Test
    void aCalendarIsDeletedOnceNoPipelineNamesIt() {
        assertThat(api.call("PUT", "/calendars/uk", "{\"name\":\"uk\",\"dates\":[\"2026-12-25\"]}")
                        .status())
                .isEqualTo(201);
        String user =
                ApiFixture.pipeline("user").replace("\"trigger\"", "\"exclusions\":{\"calendar\":\"uk\"},\"trigger\"");
        assertThat(api.call("PUT", "/pipelines/user", user).status()).isEqualTo(201);
        api.recording.clear();

        ApiFixture.Reply refused = api.call("DELETE", "/calendars/uk");
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json()
                        .path("dependants")
                        .get(0)
                        .path("errors")
                        .get(0)
                        .path("path")
                        .asText())
                .isEqualTo("$.exclusions.calendar");
        assertThat(api.recording.writes()).isEmpty();

        assertThat(api.call("DELETE", "/pipelines/user").status()).isEqualTo(204);
        assertThat(api.call("DELETE", "/calendars/uk").status()).isEqualTo(204);
        assertThat(api.call("DELETE", "/calendars/uk").status()).isEqualTo(404);
        assertThat(api.call("DELETE", "/calendars/Bad").errorPaths()).containsExactly("path.name");
    }

    @Test
    void partitionsAreStoredAndReadApartFromTheUnpartitionedValue() {
        assertThat(api.call("PUT", "/sensors/orders/partitions/2026-03-09", "{\"complete\":true}")
                        .status())
                .isEqualTo(200);
        ApiFixture.Reply hour = api.call("PUT", "/sensors/orders/partitions/2026-03-10T06", "{\"complete\":false}");
        assertThat(hour.json().path("partition").asText()).isEqualTo("2026-03-10T06");
        assertThat(hour.json().path("revision").asLong()).isEqualTo(1);

        assertThat(api.call("GET", "/sensors/orders/partitions/2026-03-09")
                        .json()
                        .path("fields")
                        .path("complete")
                        .asBoolean())
                .isTrue();
        assertThat(api.call("GET", "/sensors/orders/partitions/2026-03-10").status())
                .isEqualTo(404);
        assertThat(api.call("GET", "/sensors/orders").status()).isEqualTo(404);
        assertThat(api.store
                        .sensors()
                        .get("orders", "2026-03-10T06")
                        .orElseThrow()
                        .fields())
                .isEqualTo(Map.of("complete", false));
    }

    @Test
    void aMalformedPartitionIsA400NamingItAndWritesNothing() {
        api.recording.clear();
        for (String bad : List.of("-x", "a%23b", "a%2Fb", "a%20b", "x".repeat(129))) {
            ApiFixture.Reply reply = api.call("PUT", "/sensors/orders/partitions/" + bad, "{\"complete\":true}");
            assertThat(reply.status()).as(bad).isEqualTo(400);
            assertThat(reply.errorPaths()).as(bad).containsExactly("path.partition");
        }
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void sameFieldsAgainKeepTheRevision() {
        api.call("PUT", "/sensors/orders", "{\"count\":1}");
        ApiFixture.Reply again = api.call("PUT", "/sensors/orders", "{\"count\":1}");
        ApiFixture.Reply changed = api.call("PUT", "/sensors/orders", "{\"count\":2}");
        assertThat(again.json().path("revision").asLong()).isEqualTo(1);
        assertThat(changed.json().path("revision").asLong()).isEqualTo(2);
    }

    @Test
    void sensorProblemsAreAllListed() {
        ApiFixture.Reply reply =
                api.call("PUT", "/sensors/orders", "{\"updatedAt\":\"2020-01-01T00:00:00Z\",\"a b\":1,\"gone\":null}");

        assertThat(reply.errors())
                .containsExactly(
                        "$.updatedAt: is set by Interlock when the value is stored",
                        "$['a b']: field names must match ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$",
                        "$.gone: must have a value (leave the field out instead of null)");
        assertThat(api.call("PUT", "/sensors/orders", "{}").errors())
                .containsExactly("$: at least one field is required, e.g. {\"count\":1500}");
        assertThat(api.recording.writes()).isEmpty();
    }

    @Test
    void healthPingsTheStoreAndAnOutageIs503() {
        ApiFixture.Reply healthy = api.call("GET", "/health");
        assertThat(healthy.status()).isEqualTo(200);
        assertThat(healthy.json())
                .isEqualTo(InterlockJson.tree(Map.of("status", "ok", "time", "2026-03-10T09:00:00.000Z")));

        Provider down = (Provider) Proxy.newProxyInstance(
                Provider.class.getClassLoader(), new Class<?>[] {Provider.class}, (proxy, method, args) -> {
                    throw new StoreException("DynamoDB did not answer " + method.getName());
                });
        Api outage = new Api(
                down,
                ApiFixture.CLOCK,
                new ApiSettings(3, 2, 1024),
                () -> "x",
                new dev.interlock.log.StructuredLog(
                        "api", new java.io.PrintStream(new java.io.ByteArrayOutputStream()), ApiFixture.CLOCK));

        ApiResponse health = ApiFixture.documented(
                "GET", "/health", outage.handle(ApiRequest.of("GET", "/health", Map.of(), Map.of(), null)));
        ApiResponse read = ApiFixture.documented(
                "GET",
                "/pipelines/silver",
                outage.handle(ApiRequest.of("GET", "/pipelines/silver", Map.of(), Map.of(), null)));

        assertThat(health.status()).isEqualTo(503);
        assertThat(health.headers()).containsEntry("Content-Type", "application/problem+json");
        assertThat(InterlockJson.tree(health.body()).get("type").asText())
                .isEqualTo("urn:interlock:problem:store-unavailable");
        assertThat(read.status()).isEqualTo(503);
    }

    @Test
    void everyAnswerLeavesOneStructuredLineWithoutTheBody() {
        api.call("PUT", "/sensors/orders", "{\"secretish\":\"do-not-log\"}");
        api.call("PUT", "/pipelines/silver", "{}");

        List<JsonNode> lines = new ArrayList<>();
        for (String line :
                api.logs.toString(java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            lines.add(InterlockJson.tree(line));
        }
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).get("message").asText()).isEqualTo("request answered");
        assertThat(lines.get(0).get("method").asText()).isEqualTo("PUT");
        assertThat(lines.get(0).get("path").asText()).isEqualTo("/sensors/orders");
        assertThat(lines.get(0).get("status").asText()).isEqualTo("200");
        assertThat(lines.get(0).has("problem")).isFalse();
        assertThat(lines.get(1).get("status").asText()).isEqualTo("400");
        assertThat(lines.get(1).get("problem").asText()).isEqualTo("urn:interlock:problem:invalid-request");
        assertThat(api.logs.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("do-not-log");
    }

    @Test
    void unknownPathsAre404AndWrongMethods405WithAllow() {
        ApiFixture.Reply missing = api.call("GET", "/pipelinez");
        ApiFixture.Reply wrongMethod = api.call("PATCH", "/pipelines/silver");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.contentType()).isEqualTo("application/problem+json");
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.response().headers()).containsEntry("Allow", "PUT, GET, DELETE");
    }
}
