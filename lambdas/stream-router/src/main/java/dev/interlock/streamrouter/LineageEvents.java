package dev.interlock.streamrouter;

import dev.interlock.model.lineage.LineageEventType;
import dev.interlock.model.run.RunState;
import dev.interlock.model.runtime.InterlockVersion;
import io.openlineage.client.OpenLineage;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Builds the OpenLineage RunEvent of a run (docs/openlineage.md): job = (namespace, pipeline), run id = the run's UUID,
 * and the run facets {@code interlock_readiness} (the readiness verdict), {@code jobDependencies} (the upstream runs
 * its readiness waited for) and, on FAIL and ABORT, {@code errorMessage}. The same run and type give the same event.
 */
final class LineageEvents {

    /** The run facet holding Interlock's readiness verdict. */
    static final String READINESS_FACET = "interlock_readiness";

    static final URI PRODUCER = URI.create("urn:dev.interlock:interlock-java:" + InterlockVersion.current());
    static final URI READINESS_SCHEMA = URI.create("urn:dev.interlock:openlineage:ReadinessRunFacet:1");

    /** An upstream run this run's readiness waited for. */
    record Upstream(String pipelineId, String runId) {}

    private final OpenLineage openLineage = new OpenLineage(PRODUCER);
    private final String namespace;

    LineageEvents(String namespace) {
        this.namespace = namespace;
    }

    OpenLineage.RunEvent of(LineageEventType type, RunState run, Instant at, List<Upstream> upstreams) {
        OpenLineage.RunFacetsBuilder facets =
                openLineage.newRunFacetsBuilder().put(READINESS_FACET, readiness(run, type));
        if (!upstreams.isEmpty()) {
            facets.jobDependencies(openLineage
                    .newJobDependenciesRunFacetBuilder()
                    .upstream(upstreams.stream()
                            .map(u -> openLineage.newJobDependency(
                                    openLineage.newJobIdentifier(namespace, u.pipelineId()),
                                    openLineage.newRunIdentifier(runUuid(u.runId())),
                                    "IMPLICIT_DEPENDENCY",
                                    "FINISH_TO_START",
                                    "EXECUTE_ON_SUCCESS"))
                            .toList())
                    .build());
        }
        if (type == LineageEventType.FAIL || type == LineageEventType.ABORT) {
            String message =
                    run.failureMessage() == null || run.failureMessage().isBlank()
                            ? "run " + run.status().wireName()
                            : run.failureMessage();
            facets.errorMessage(openLineage.newErrorMessageRunFacet(message, "Interlock", null));
        }
        return openLineage
                .newRunEventBuilder()
                .eventType(OpenLineage.RunEvent.EventType.valueOf(type.name()))
                .eventTime(at.atZone(ZoneOffset.UTC))
                .run(openLineage.newRun(runUuid(run.runId()), facets.build()))
                .job(openLineage.newJob(namespace, run.pipelineId(), null))
                .inputs(List.of())
                .outputs(List.of())
                .build();
    }

    private OpenLineage.RunFacet readiness(RunState run, LineageEventType type) {
        OpenLineage.DefaultRunFacet facet = new OpenLineage.DefaultRunFacet(PRODUCER) {
            @Override
            public URI get_schemaURL() {
                return READINESS_SCHEMA;
            }
        };
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put(
                "verdict",
                run.forced() != null ? "FORCED" : run.proceededWithout().isEmpty() ? "READY" : "PROCEEDED_WITHOUT");
        fields.put("pipeline", run.pipelineId());
        fields.put("schedule", run.scheduleId());
        fields.put("date", run.date().toString());
        if (!run.proceededWithout().isEmpty()) {
            fields.put("proceededWithout", run.proceededWithout());
        }
        if (run.forced() != null) {
            fields.put("forcedBy", run.forced().by());
            fields.put("forcedReason", run.forced().reason());
        }
        if (run.triggerType() != null) {
            fields.put("triggerType", run.triggerType().wireName());
        }
        if (run.executionName() != null) {
            fields.put("executionName", run.executionName());
        }
        if (type != LineageEventType.START) {
            fields.put("status", run.status().wireName());
            // A run that completed late keeps why it had failed; its COMPLETE carries no failure.
            if (run.failureCategory() != null && type != LineageEventType.COMPLETE) {
                fields.put("failureCategory", run.failureCategory().wireName());
            }
        }
        facet.getAdditionalProperties().putAll(fields);
        return facet;
    }

    /** The run's id when it is a UUID (as Interlock makes them), else a UUID derived from it: stable for the run. */
    static UUID runUuid(String runId) {
        try {
            return UUID.fromString(runId);
        } catch (IllegalArgumentException notAUuid) {
            return UUID.nameUUIDFromBytes(("interlock-run:" + runId).getBytes(StandardCharsets.UTF_8));
        }
    }
}
