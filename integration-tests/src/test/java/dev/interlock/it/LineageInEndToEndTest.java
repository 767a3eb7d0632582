package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * OpenLineage in: a pipeline gated on a dbt model by {@code builtin:lineage-complete} waits NOT
 * READY until the dbt run's COMPLETE event, as dbt-ol emits it, is posted to {@code POST /lineage}; that event starts
 * the evaluation (no watchdog tick, no request) and the job runs. START and FAIL events, and a COMPLETE of another day,
 * do not make today ready; each skip says why; a malformed event is a 400 naming the field.
 */
class LineageInEndToEndTest extends EndToEnd {

    private static final String DBT_NAMESPACE = "dbt://analytics-prod";
    private static final String DBT_JOB = "jaffle_shop.model.jaffle_shop.orders";

    private String gatedOnDbt(String name) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency:
                    evaluator: "builtin:lineage-complete"
                    config: {namespace: "%s", job: "%s"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                evaluationIntervalSeconds: 60
                """.formatted(name, DBT_NAMESPACE, DBT_JOB, jobs.endpoint(), name);
    }

    /** A run event shaped like dbt-ol's (openlineage-dbt 1.x) for the orders model, with its facets. */
    static String dbtEvent(String eventType, Instant eventTime, String runId) {
        return """
                {
                  "eventType": "%s",
                  "eventTime": "%s",
                  "producer": "https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt",
                  "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
                  "run": {
                    "runId": "%s",
                    "facets": {
                      "parent": {
                        "_producer": "https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt",
                        "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json#/$defs/ParentRunFacet",
                        "run": {"runId": "0193a2e4-5b4c-7d2e-9a10-3f2c1e6b8d01"},
                        "job": {"namespace": "%s", "name": "dbt-run-jaffle_shop"}
                      },
                      "dbt_version": {
                        "_producer": "https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt",
                        "_schemaURL": "https://github.com/OpenLineage/OpenLineage/tree/main/integration/common/openlineage/schema/dbt-version-run-facet.json",
                        "version": "1.8.3"
                      }
                    }
                  },
                  "job": {
                    "namespace": "%s",
                    "name": "%s",
                    "facets": {
                      "sql": {
                        "_producer": "https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt",
                        "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/SQLJobFacet.json#/$defs/SQLJobFacet",
                        "query": "select * from \\"analytics\\".\\"staging\\".\\"stg_orders\\""
                      },
                      "jobType": {
                        "_producer": "https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt",
                        "_schemaURL": "https://openlineage.io/spec/facets/2-0-3/JobTypeJobFacet.json#/$defs/JobTypeJobFacet",
                        "processingType": "BATCH", "integration": "DBT", "jobType": "MODEL"
                      }
                    }
                  },
                  "inputs": [
                    {"namespace": "postgres://warehouse:5432", "name": "analytics.staging.stg_orders", "facets": {}}
                  ],
                  "outputs": [
                    {
                      "namespace": "postgres://warehouse:5432",
                      "name": "analytics.marts.orders",
                      "facets": {
                        "dataSource": {
                          "_producer": "https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt",
                          "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/DatasourceDatasetFacet.json#/$defs/DatasourceDatasetFacet",
                          "name": "postgres://warehouse:5432", "uri": "postgres://warehouse:5432"
                        }
                      },
                      "outputFacets": {
                        "outputStatistics": {
                          "_producer": "https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/dbt",
                          "_schemaURL": "https://openlineage.io/spec/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet",
                          "rowCount": 99
                        }
                      }
                    }
                  ]
                }
                """.formatted(eventType, eventTime, runId, DBT_NAMESPACE, DBT_NAMESPACE, DBT_JOB);
    }

    private Response post(String json) {
        return call("POST", "/lineage", "application/json", json);
    }

    private JsonNode accepted(String json) {
        Response r = post(json);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    @Test
    void aDbtCompleteEventOfTheDayMakesTheGatedPipelineReadyAndOthersDoNot() throws Exception {
        String id = "li-orders";
        LocalDate today = today();
        Instant now = rt.clock().instant();
        putPipeline(gatedOnDbt(id));
        evaluate(id, today);
        awaitNotReady(id);

        // START: the run began, nothing is complete.
        JsonNode start = accepted(dbtEvent("START", now, UUID.randomUUID().toString()));
        assertThat(start.path("evaluations")).isEmpty();
        assertThat(start.path("reason").asText()).contains("START");

        // FAIL: a skip with its reason, in the answer and as an event of the pipeline that waits for the job.
        JsonNode fail = accepted(dbtEvent("FAIL", now, UUID.randomUUID().toString()));
        assertThat(fail.path("evaluations")).isEmpty();
        assertThat(fail.path("skipped")).singleElement().satisfies(s -> {
            assertThat(s.path("pipelineId").asText()).isEqualTo(id);
            assertThat(s.path("reason").asText()).contains("FAIL");
        });
        assertThat(eventsOf(id, "LINEAGE_RECEIVED")).singleElement().satisfies(e -> {
            assertThat(e.path("status").asText()).isEqualTo("SKIPPED");
            assertThat(e.path("message").asText()).contains("FAIL").contains(DBT_JOB);
        });

        // A COMPLETE of two days ago is that day's, not today's.
        Instant twoDaysAgo = today.minusDays(2).atTime(5, 0).toInstant(ZoneOffset.UTC);
        JsonNode old =
                accepted(dbtEvent("COMPLETE", twoDaysAgo, UUID.randomUUID().toString()));
        assertThat(old.path("day").asText()).isEqualTo(today.minusDays(2).toString());
        assertThat(old.path("evaluations").findValuesAsText("date")).doesNotContain(today.toString());

        // A job no pipeline waits for: accepted, and the answer says nothing waits for it.
        JsonNode nobody = accepted(
                dbtEvent("COMPLETE", now, UUID.randomUUID().toString()).replace(DBT_JOB, "jaffle_shop.model.other"));
        assertThat(nobody.path("evaluations")).isEmpty();
        assertThat(nobody.path("reason").asText()).contains("no registered pipeline");

        assertThat(runLogStatus(id, today, "daily")).isNotEqualTo("COMPLETED");

        // The day's COMPLETE starts the evaluation, the trait passes, the job runs.
        String runId = UUID.randomUUID().toString();
        JsonNode complete = accepted(dbtEvent("COMPLETE", now, runId));
        assertThat(complete.path("day").asText()).isEqualTo(today.toString());
        assertThat(complete.path("evaluations")).singleElement().satisfies(e -> {
            assertThat(e.path("pipelineId").asText()).isEqualTo(id);
            assertThat(e.path("date").asText()).isEqualTo(today.toString());
        });
        await("the gated day completed", () -> runLogStatus(id, today, "daily"), s -> s.equals("COMPLETED"));
        assertThat(eventsOf(id, "LINEAGE_RECEIVED"))
                .extracting(e -> e.path("status").asText())
                .contains("SKIPPED", "EVALUATION_STARTED");
        assertThat(list("/pipelines/" + id + "/traits").toString())
                .as("the passing trait names the dbt run")
                .contains(runId);

        // The same event again (a producer's retry) starts nothing new.
        JsonNode again = accepted(dbtEvent("COMPLETE", now, runId));
        assertThat(again.path("evaluations")).isEmpty();

        // The CLI replays a file of events as OpenLineage's file transport writes them (JSON lines) and says why.
        java.nio.file.Path file = java.nio.file.Files.createTempFile("lineage", ".jsonl");
        java.nio.file.Files.writeString(
                file,
                JSON.readTree(dbtEvent("START", now, runId)) + "\n" + JSON.readTree(dbtEvent("COMPLETE", now, runId))
                        + "\n");
        String printed = printed("lineage", file.toString());
        assertThat(printed)
                .contains("line 1: START of job " + DBT_NAMESPACE + "/" + DBT_JOB + " for " + today)
                .contains("only COMPLETE counts")
                .contains("line 2: COMPLETE of job")
                .contains("skipped " + id + " " + today + ": the day is already COMPLETED");
    }

    @Test
    void aMalformedEventIsA400NamingTheField() {
        String good =
                dbtEvent("COMPLETE", rt.clock().instant(), UUID.randomUUID().toString());
        assertThat(fieldsOf(post(good.replace("\"eventType\": \"COMPLETE\"", "\"eventType\": \"DONE\""))))
                .contains("$.eventType");
        assertThat(fieldsOf(post(good.replaceFirst("\"eventTime\": \"[^\"]+\"", "\"eventTime\": \"yesterday\""))))
                .contains("$.eventTime");
        assertThat(fieldsOf(post(good.replaceFirst("\"runId\": \"[^\"]+\"", "\"runId\": \"run-42\""))))
                .contains("$.run.runId");
        assertThat(fieldsOf(post(good.replace("\"name\": \"" + DBT_JOB + "\",", ""))))
                .contains("$.job.name");
        assertThat(fieldsOf(post("[]"))).isNotEmpty();
    }

    private static java.util.List<String> fieldsOf(Response r) {
        assertThat(r.status()).as(r.raw()).isEqualTo(400);
        return r.body().path("errors").findValuesAsText("path");
    }
}
