package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.ArchetypeCatalog;
import dev.interlock.model.archetype.ArchetypeValidation;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.validation.PipelineValidation;
import dev.interlock.model.validation.Validated;
import dev.interlock.model.validation.ValidationError;
import dev.interlock.store.Provider;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code /pipelines}: register (with the downstream index, through the store), read, list, delete, validate. */
final class PipelineRoutes {

    private final Provider provider;
    private final RequestBody body;
    private final PipelineValidation validation;

    PipelineRoutes(Provider provider, RequestBody body, ApiSettings settings) {
        this.provider = provider;
        this.body = body;
        this.validation = new PipelineValidation(this::archetype, settings.commandTriggerAllowed(), settings.outbound());
    }

    /** A registered archetype, else a bundled one: what a pipeline may name. */
    Optional<Archetype> archetype(String name) {
        if (name == null || !ArchetypeValidation.NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return provider.archetypes().get(name).or(() -> ArchetypeCatalog.bundled().find(name));
    }

    ApiResponse put(ApiRequest request, Map<String, String> path) {
        PipelineConfig config = validated(request, path);
        boolean created = provider.pipelines().put(config);
        return ApiResponse.json(created ? 201 : 200, config);
    }

    ApiResponse validate(ApiRequest request, Map<String, String> path) {
        PipelineConfig config = validated(request, path);
        return ApiResponse.json(200, new ValidationResult(true, config));
    }

    ApiResponse get(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        return provider.pipelines().get(id)
                .map(config -> ApiResponse.json(200, config))
                .orElseThrow(() -> notFound(id));
    }

    ApiResponse delete(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        if (!provider.pipelines().delete(id)) {
            throw notFound(id);
        }
        return ApiResponse.noContent();
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
            throw ProblemException.invalid("the pipeline '" + id + "' has " + errors.size() + " problem(s)", errors);
        }
        return result.value();
    }

    static ProblemException notFound(String id) {
        return ProblemException.of(ProblemType.NOT_FOUND, "no pipeline '" + id + "'");
    }

    /** The answer of a validation that passed: the pipeline as it would be stored, defaults applied. */
    record ValidationResult(boolean valid, PipelineConfig pipeline) {
    }
}
