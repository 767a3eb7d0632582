package dev.interlock.api;

import dev.interlock.model.json.ValidationError;
import dev.interlock.store.Registration;
import java.util.List;

/** A request the API refuses; {@link Api} turns it into its problem response. Thrown before anything is written. */
public final class ProblemException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Problem problem;
    private final transient List<String> allowedMethods;

    private ProblemException(Problem problem, List<String> allowedMethods) {
        super(problem.detail());
        this.problem = problem;
        this.allowedMethods = List.copyOf(allowedMethods);
    }

    public Problem problem() {
        return problem;
    }

    /** For 405: the methods the resource supports (the Allow header). */
    public List<String> allowedMethods() {
        return allowedMethods;
    }

    /** 400 listing every error. */
    public static ProblemException invalid(String detail, List<ValidationError> errors) {
        return new ProblemException(Problem.of(ProblemType.INVALID_REQUEST, detail, errors), List.of());
    }

    /** 400 for one error. */
    public static ProblemException invalid(String path, String message) {
        return invalid(message, List.of(new ValidationError(path, message)));
    }

    /** 409: a change to {@code what} would break the pipelines that use it; each is listed with why. */
    public static ProblemException breaking(String what, List<Registration.BrokenPipeline> dependants) {
        String names = String.join(
                ", ",
                dependants.stream().map(Registration.BrokenPipeline::pipelineId).toList());
        return new ProblemException(
                Problem.breaking(
                        what + " would break " + dependants.size() + " pipeline(s) that use it: " + names
                                + "; nothing was changed",
                        dependants),
                List.of());
    }

    /** A problem without per-field errors. */
    public static ProblemException of(ProblemType type, String detail) {
        return new ProblemException(Problem.of(type, detail, List.of()), List.of());
    }

    /** 405 with the allowed methods. */
    public static ProblemException methodNotAllowed(String method, String path, List<String> allowed) {
        return new ProblemException(
                Problem.of(
                        ProblemType.METHOD_NOT_ALLOWED,
                        method + " is not allowed on " + path + "; allowed: " + String.join(", ", allowed),
                        List.of()),
                allowed);
    }
}
