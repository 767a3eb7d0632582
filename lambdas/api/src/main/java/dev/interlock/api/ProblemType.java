package dev.interlock.api;

/** The kinds of problem the API answers with, each with its HTTP status and a stable type URI. */
public enum ProblemType {
    INVALID_REQUEST(400, "invalid-request", "The request is invalid"),
    NOT_FOUND(404, "not-found", "No such resource"),
    METHOD_NOT_ALLOWED(405, "method-not-allowed", "Method not allowed on this resource"),
    CONFLICT(409, "conflict", "The request conflicts with the current state"),
    PAYLOAD_TOO_LARGE(413, "payload-too-large", "The request body is too large"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported-media-type", "The request body must be JSON or YAML"),
    INTERNAL_ERROR(500, "internal-error", "Internal error"),
    STORE_UNAVAILABLE(503, "store-unavailable", "The store is unavailable; retry later");

    /** Every problem type URI starts with this. */
    public static final String URI_PREFIX = "urn:interlock:problem:";

    private final int status;
    private final String slug;
    private final String title;

    ProblemType(int status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** The {@code type} member of the problem document. */
    public String uri() {
        return URI_PREFIX + slug;
    }
}
