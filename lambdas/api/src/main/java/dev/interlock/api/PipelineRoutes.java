package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.validation.PipelineValidation;
import dev.interlock.model.validation.Validated;
import dev.interlock.store.Provider;
import dev.interlock.store.Registration;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code /pipelines}: register (with the indexes of what it names, through the store), read, list, delete, validate.
 */
final class PipelineRoutes {

    private final Provider provider;
    private final RequestBody body;
    private final ReferenceChecks references;
    private final PipelineValidation validation;
    private final StoppedDays stoppedDays;
    private final Clock clock;

    PipelineRoutes(
            Provider provider,
            RequestBody body,
            ApiSettings settings,
            ReferenceChecks references,
            StoppedDays stoppedDays,
            Clock clock) {
        this.provider = provider;
        this.body = body;
        this.references = references;
        this.validation = new PipelineValidation(references::archetype, settings.outbound())
                .withPipelines(id -> provider.pipelines().get(id));
        this.stoppedDays = stoppedDays;
        this.clock = clock;
    }

    /**
     * Registers the pipeline if it is valid against the archetype and calendar registered when the write lands (the
     * store checks again if either changes meanwhile); a calendar that is not registered is a 400 at
     * {@code $.exclusions.calendar}, and nothing is written. Registering it runs again each day whose wait a PERMANENT
     * evaluator error stopped ({@link StoppedDays}); the answer then lists those evaluations under {@code evaluations}.
     */
    ApiResponse put(ApiRequest request, Map<String, String> path) {
        PipelineConfig config = validated(request, path);
        refuseBreakingDownstreams(config);
        return switch (provider.pipelines().register(config, references.pipeline())) {
            case Registration.Written written -> registered(written.created() ? 201 : 200, config, request);
            case Registration.Refused refused -> throw invalid(config.name(), refused.problems());
            case Registration other -> throw new IllegalStateException("pipeline registration answered " + other);
        };
    }

    /** The registered document, with the evaluations re-registration started when it started any. */
    private ApiResponse registered(int status, PipelineConfig config, ApiRequest request) {
        List<MarkerRoutes.Evaluation> started = stoppedDays.restart(config, request.caller(), clock.instant());
        if (started.isEmpty()) {
            return ApiResponse.json(status, config);
        }
        ObjectNode answer = InterlockJson.json().valueToTree(config);
        answer.set("evaluations", InterlockJson.json().valueToTree(started));
        return ApiResponse.json(status, answer);
    }

    ApiResponse validate(ApiRequest request, Map<String, String> path) {
        PipelineConfig config = validated(request, path);
        List<ValidationError> problems = references.now(config);
        if (!problems.isEmpty()) {
            throw invalid(config.name(), problems);
        }
        refuseBreakingDownstreams(config);
        return ApiResponse.json(200, new ValidationResult(true, config));
    }

    private static ProblemException invalid(String id, List<ValidationError> errors) {
        return ProblemException.invalid("the pipeline '" + id + "' has " + errors.size() + " problem(s)", errors);
    }

    ApiResponse get(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        return provider.pipelines()
                .get(id)
                .map(config -> ApiResponse.json(200, config))
                .orElseThrow(() -> notFound(id));
    }

    /**
     * {@code DELETE /pipelines/{id}}: refused (409, the problem's {@code dependants} listing each with the field that
     * names it) while registered pipelines wait for it, since they would wait for a pipeline that never runs again;
     * {@code ?force=true} deletes it anyway.
     */
    ApiResponse delete(ApiRequest request, Map<String, String> path) {
        List<ValidationError> errors = new ArrayList<>();
        String id = PathIds.pipelineId(path.get("id"));
        boolean force = request.flag("force", errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the deletion of pipeline '" + id + "' is invalid", errors);
        }
        if (!force) {
            List<Registration.BrokenPipeline> dependants = dependants(id);
            if (!dependants.isEmpty()) {
                throw ProblemException.breaking("deleting pipeline '" + id + "'", dependants);
            }
        }
        if (!provider.pipelines().delete(id)) {
            throw notFound(id);
        }
        // Its pause goes with it: a pipeline registered later under the name starts unpaused.
        provider.pauses().delete(id);
        return ApiResponse.noContent();
    }

    /**
     * A 409 listing the registered pipelines that wait for {@code config} and would wait in vain once it is registered
     * (it no longer has windows they wait for), each with its problems; nothing then is written. A change to one
     * pipeline must not silently strand the ones downstream of it.
     */
    private void refuseBreakingDownstreams(PipelineConfig config) {
        List<Registration.BrokenPipeline> broken = new ArrayList<>();
        for (PipelineConfig downstream : downstreams(config.name())) {
            List<ValidationError> problems = PipelineValidation.downstreamProblems(downstream, config);
            if (!problems.isEmpty()) {
                broken.add(new Registration.BrokenPipeline(downstream.name(), problems));
            }
        }
        if (!broken.isEmpty()) {
            throw ProblemException.breaking("changing the schedules of pipeline '" + config.name() + "'", broken);
        }
    }

    /** The registered pipelines that wait for {@code id}, in name order. */
    private Iterable<PipelineConfig> downstreams(String id) {
        return new TreeMap<>(provider.pipelines().getAll(provider.cascade().downstreamOf(id))).values();
    }

    /** The registered pipelines that wait for {@code id}, each with the trait fields that name it. */
    private List<Registration.BrokenPipeline> dependants(String id) {
        List<Registration.BrokenPipeline> dependants = new ArrayList<>();
        for (PipelineConfig downstream : downstreams(id)) {
            List<ValidationError> fields = new ArrayList<>();
            downstream.traits().forEach((trait, traitConfig) -> {
                if (traitConfig != null
                        && traitConfig.config().get(PipelineConfig.UPSTREAM_PIPELINE) instanceof String upstream
                        && upstream.trim().equals(id)) {
                    fields.add(new ValidationError(
                            JsonPath.field(
                                    JsonPath.field(
                                            JsonPath.field(JsonPath.field(JsonPath.ROOT, "traits"), trait), "config"),
                                    PipelineConfig.UPSTREAM_PIPELINE),
                            "waits for pipeline '" + id + "'"));
                }
            });
            if (!fields.isEmpty()) {
                dependants.add(new Registration.BrokenPipeline(downstream.name(), fields));
            }
        }
        return dependants;
    }

    ApiResponse list(ApiRequest request, Map<String, String> path) {
        return Paging.list(provider.pipelines().list(Paging.of(request)));
    }

    /** The pipeline a request may register, or a 400 listing every problem (the path id and the document together). */
    private PipelineConfig validated(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        JsonNode document = body.readObject(request, false);
        Validated<PipelineConfig> result = validation.validateTree(document);
        List<ValidationError> errors = new ArrayList<>(result.errors());
        NamedDocument.checkName(document, id, "pipeline id", errors);
        if (!errors.isEmpty()) {
            throw invalid(id, errors);
        }
        return result.value();
    }

    static ProblemException notFound(String id) {
        return ProblemException.of(ProblemType.NOT_FOUND, "no pipeline '" + id + "'");
    }

    /** The answer of a validation that passed: the pipeline as it would be stored, defaults applied. */
    record ValidationResult(boolean valid, PipelineConfig pipeline) {}
}
