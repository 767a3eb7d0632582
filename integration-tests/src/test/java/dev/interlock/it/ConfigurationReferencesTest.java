package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Configuration cannot silently disable a pipeline: registration refuses a calendar that does not exist, and a change
 * to an archetype or calendar (or deleting a calendar) that would break a pipeline using it is refused with a 409
 * naming every such pipeline and why. Nothing is written when a request is refused.
 */
class ConfigurationReferencesTest extends EndToEnd {

    private String user(String name, String archetype, String extra) {
        return """
                name: %s
                archetype: %s
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                %s
                """.formatted(name, archetype, jobs.endpoint(), name, extra);
    }

    private static List<String> paths(JsonNode problem) {
        List<String> paths = new ArrayList<>();
        problem.path("errors").forEach(e -> paths.add(e.path("path").asText()));
        return paths;
    }

    @Test
    void aCalendarTypoIsRefusedAtRegistrationAndNothingIsWritten() {
        expect(
                201,
                "PUT",
                "/calendars/cr-holidays-2026",
                "application/yaml",
                "name: cr-holidays-2026\ndates: [\"2026-12-25\"]\n");
        String typo = user("cr-typo", "batch-ingestion", "exclusions: {calendar: cr-holidays-2062}");

        Response validate = call("POST", "/pipelines/cr-typo/validate", "application/yaml", typo);
        Response put = call("PUT", "/pipelines/cr-typo", "application/yaml", typo);

        for (Response r : List.of(validate, put)) {
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(paths(r.body())).containsExactly("$.exclusions.calendar");
            assertThat(r.body().path("errors").get(0).path("message").asText()).contains("cr-holidays-2062");
        }
        assertThat(call("GET", "/pipelines/cr-typo", null, null).status()).isEqualTo(404);
        putPipeline(user("cr-typo", "batch-ingestion", "exclusions: {calendar: cr-holidays-2026}"));
    }

    @Test
    void reRegisteringAnArchetypeThatWouldBreakAPipelineIsRefusedNamingIt() {
        String archetype = """
                name: cr-arch
                requiredTraits:
                  - {type: source-freshness}
                  - {type: upstream-dependency}
                  - {type: resource-availability}
                optionalTraits:
                  - {type: quality}
                readinessRule: {type: all-required-pass}
                """;
        expect(201, "PUT", "/archetypes/cr-arch", "application/yaml", archetype);
        putPipeline(user("cr-user-a", "cr-arch", ""));
        putPipeline(user("cr-user-b", "cr-arch", "")
                .replace("traits:\n", "traits:\n  quality: {evaluator: \"builtin:always-pass\"}\n"));

        // Dropping the optional trait cr-user-b configures, and adding a required trait nobody evaluates.
        String breaking = """
                name: cr-arch
                requiredTraits:
                  - {type: source-freshness}
                  - {type: upstream-dependency}
                  - {type: resource-availability}
                  - {type: row-count}
                readinessRule: {type: all-required-pass}
                """;
        Response refused = call("PUT", "/archetypes/cr-arch", "application/yaml", breaking);

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.body().path("detail").asText()).contains("cr-user-a").contains("cr-user-b");
        JsonNode broken = refused.body().path("dependants");
        assertThat(broken).hasSize(2);
        assertThat(broken.get(0).path("pipelineId").asText()).isEqualTo("cr-user-a");
        assertThat(paths(broken.get(0))).containsExactly("$.traits.row-count.evaluator");
        assertThat(broken.get(1).path("pipelineId").asText()).isEqualTo("cr-user-b");
        assertThat(paths(broken.get(1))).containsExactlyInAnyOrder("$.traits.quality", "$.traits.row-count.evaluator");
        // Nothing written: the archetype is the one registered before.
        assertThat(expect(200, "GET", "/archetypes/cr-arch", null, null).path("optionalTraits"))
                .hasSize(1);

        // A change that breaks nobody is accepted.
        expect(
                200,
                "PUT",
                "/archetypes/cr-arch",
                "application/yaml",
                archetype.replace("name: cr-arch\n", "name: cr-arch\ndescription: now documented\n"));
        // Once the last user no longer needs the trait, dropping it is accepted too.
        expect(204, "DELETE", "/pipelines/cr-user-b", null, null);
        expect(
                200,
                "PUT",
                "/archetypes/cr-arch",
                "application/yaml",
                archetype.replace("optionalTraits:\n  - {type: quality}\n", ""));
    }

    @Test
    void aCalendarChangeThatWouldExcludeEveryDayOfAPipelineIsRefused() {
        expect(201, "PUT", "/calendars/cr-weekend", "application/yaml", "name: cr-weekend\ndays: [saturday]\n");
        putPipeline(user("cr-weekdays", "batch-ingestion", "exclusions: {calendar: cr-weekend, days: [sunday]}"));

        Response refused = call(
                "PUT",
                "/calendars/cr-weekend",
                "application/yaml",
                "name: cr-weekend\ndays: [monday, tuesday, wednesday, thursday, friday, saturday]\n");

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().path("dependants").get(0).path("pipelineId").asText())
                .isEqualTo("cr-weekdays");
        assertThat(paths(refused.body().path("dependants").get(0))).containsExactly("$.exclusions.calendar");
        assertThat(refused.body()
                        .path("dependants")
                        .get(0)
                        .path("errors")
                        .get(0)
                        .path("message")
                        .asText())
                .contains("every day of the week");
        assertThat(expect(200, "GET", "/calendars/cr-weekend", null, null).path("days"))
                .hasSize(1);

        expect(
                200,
                "PUT",
                "/calendars/cr-weekend",
                "application/yaml",
                "name: cr-weekend\ndays: [saturday]\ndates: [\"2026-12-24\"]\n");
    }

    @Test
    void aCalendarInUseCannotBeDeletedUntilNothingUsesIt() {
        expect(201, "PUT", "/calendars/cr-freeze", "application/yaml", "name: cr-freeze\ndates: [\"2026-12-31\"]\n");
        putPipeline(user("cr-frozen", "batch-ingestion", "exclusions: {calendar: cr-freeze}"));

        Response refused = call("DELETE", "/calendars/cr-freeze", null, null);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().path("dependants").get(0).path("pipelineId").asText())
                .isEqualTo("cr-frozen");
        assertThat(paths(refused.body().path("dependants").get(0))).containsExactly("$.exclusions.calendar");
        expect(200, "GET", "/calendars/cr-freeze", null, null);

        // Re-registered without the calendar, the pipeline no longer holds it.
        putPipeline(user("cr-frozen", "batch-ingestion", ""));
        expect(204, "DELETE", "/calendars/cr-freeze", null, null);
        assertThat(call("GET", "/calendars/cr-freeze", null, null).status()).isEqualTo(404);
        assertThat(call("DELETE", "/calendars/cr-freeze", null, null).status()).isEqualTo(404);
        // And a pipeline naming it now is refused.
        Response late = call(
                "PUT",
                "/pipelines/cr-late",
                "application/yaml",
                user("cr-late", "batch-ingestion", "exclusions: {calendar: cr-freeze}"));
        assertThat(late.status()).isEqualTo(400);
        assertThat(paths(late.body())).containsExactly("$.exclusions.calendar");
    }
}
