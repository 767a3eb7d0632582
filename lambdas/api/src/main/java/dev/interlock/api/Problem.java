package dev.interlock.api;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.validation.ValidationError;

import java.util.List;

/**
 * An RFC 9457 problem document ({@code application/problem+json}); {@code errors} lists every problem of the
 * request with the JSON path it concerns ({@code $.trigger.url}, or {@code path.id} / {@code query.limit}).
 */
public record Problem(String type, String title, int status, String detail, List<ValidationError> errors) {
    public Problem {
        errors = Frozen.list(errors);
    }

    /** A problem of {@code type}. */
    public static Problem of(ProblemType type, String detail, List<ValidationError> errors) {
        return new Problem(type.uri(), type.title(), type.status(), detail, errors);
    }
}
