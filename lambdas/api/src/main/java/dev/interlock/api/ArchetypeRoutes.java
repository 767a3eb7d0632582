package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.net.NeverAllowedAddresses;
import dev.interlock.model.validation.DocumentValidation;
import dev.interlock.model.validation.Validated;
import dev.interlock.store.Page;
import dev.interlock.store.Provider;
import dev.interlock.store.Registration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code /archetypes}: register and read archetypes; the bundled ones are always listed unless a registered one replaces them. */
final class ArchetypeRoutes {

    /** Listing pages read from the store while merging with the bundled archetypes. */
    private static final int STORE_PAGE = 100;

    private final Provider provider;
    private final RequestBody body;
    private final ReferenceChecks references;
    /** Trait evaluator URLs are refused at registration under the rule pipeline traits are registered under. */
    private final NeverAllowedAddresses addresses = NeverAllowedAddresses.system();

    ArchetypeRoutes(Provider provider, RequestBody body, ReferenceChecks references) {
        this.provider = provider;
        this.body = body;
        this.references = references;
    }

    ApiResponse put(ApiRequest request, Map<String, String> path) {
        Archetype archetype = validated(request, path);
        // Every pipeline that uses it is judged under the new version; one it would break refuses the change (409).
        return switch (provider.archetypes().register(archetype, references.archetypeChange(archetype))) {
            case Registration.Written written -> ApiResponse.json(written.created() ? 201 : 200, archetype);
            case Registration.Blocked blocked ->
                throw ProblemException.breaking(
                        "re-registering archetype '" + archetype.name() + "'", blocked.dependants());
            case Registration other -> throw new IllegalStateException("archetype registration answered " + other);
        };
    }

    /** What {@code put} would store, or its 400; writes nothing. */
    ApiResponse validate(ApiRequest request, Map<String, String> path) {
        return ApiResponse.json(200, new ValidationResult(true, validated(request, path)));
    }

    private Archetype validated(ApiRequest request, Map<String, String> path) {
        String name = PathIds.archetypeName(path.get("name"));
        JsonNode document = body.readObject(request, false);
        Validated<Archetype> result = DocumentValidation.archetype(document, addresses);
        List<ValidationError> errors = new ArrayList<>(result.errors());
        NamedDocument.checkName(document, name, "archetype name", errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the archetype '" + name + "' has " + errors.size() + " problem(s)", errors);
        }
        return result.value();
    }

    /** The answer of a validation that passed: the archetype as it would be stored. */
    record ValidationResult(boolean valid, Archetype archetype) {}

    ApiResponse get(ApiRequest request, Map<String, String> path) {
        String name = PathIds.archetypeName(path.get("name"));
        return references
                .archetype(name)
                .map(archetype -> ApiResponse.json(200, archetype))
                .orElseThrow(() -> ProblemException.of(ProblemType.NOT_FOUND, "no archetype '" + name + "'"));
    }

    /** Registered and bundled archetypes in name order, in one page: there are a handful, not thousands. */
    ApiResponse list(ApiRequest request, Map<String, String> path) {
        Map<String, Archetype> byName = new LinkedHashMap<>();
        ArchetypeCatalog.bundled().all().forEach(a -> byName.put(a.name(), a));
        Page.all(STORE_PAGE, provider.archetypes()::list).forEach(a -> byName.put(a.name(), a));
        List<Archetype> sorted = byName.values().stream()
                .sorted(Comparator.comparing(Archetype::name))
                .toList();
        return Paging.list(Page.last(sorted));
    }
}
