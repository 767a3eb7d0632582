package dev.interlock.api;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.json.ValidationError;
import dev.interlock.store.Registration;
import java.util.List;

/**
 * An RFC 9457 problem document ({@code application/problem+json}); {@code errors} lists every problem of the
 * request with the JSON path it concerns ({@code $.trigger.url}, or {@code path.id} / {@code query.limit}).
 * {@code dependants} (an extension member, present only on a refused archetype or calendar change) lists each pipeline
 * the change would break with its problems under the change, paths into that pipeline's document.
 */
public record Problem(
        String type,
        String title,
        int status,
        String detail,
        List<ValidationError> errors,
        List<Registration.BrokenPipeline> dependants) {
    public Problem {
        errors = Frozen.list(errors);
        dependants = dependants == null ? null : Frozen.list(dependants);
    }

    /** A problem of {@code type}. */
    public static Problem of(ProblemType type, String detail, List<ValidationError> errors) {
        return new Problem(type.uri(), type.title(), type.status(), detail, errors, null);
    }

    /** A 409: the change would break {@code dependants}. */
    public static Problem breaking(String detail, List<Registration.BrokenPipeline> dependants) {
        ProblemType type = ProblemType.CONFLICT;
        return new Problem(type.uri(), type.title(), type.status(), detail, List.of(), dependants);
    }
}
