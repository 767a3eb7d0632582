package dev.interlock.model.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The routes of the registration API (SPEC §9), named once: the API Gateway resources in the CDK stack, the API
 * function's router and the local runtime's HTTP server all enumerate this list, so a route cannot exist in one and
 * be missing from another.
 */
public enum ApiRoute {
    LIST_PIPELINES("GET", "/pipelines"),
    PUT_PIPELINE("PUT", "/pipelines/{id}"),
    GET_PIPELINE("GET", "/pipelines/{id}"),
    DELETE_PIPELINE("DELETE", "/pipelines/{id}"),
    VALIDATE_PIPELINE("POST", "/pipelines/{id}/validate"),
    REQUEST_EVALUATION("POST", "/pipelines/{id}/evaluations"),
    REQUEST_RERUN("POST", "/pipelines/{id}/reruns"),
    LIST_RUNS("GET", "/pipelines/{id}/runs"),
    LIST_RUN_LOGS("GET", "/pipelines/{id}/runlogs"),
    LIST_EVENTS("GET", "/pipelines/{id}/events"),
    LIST_TRAITS("GET", "/pipelines/{id}/traits"),
    LIST_ARCHETYPES("GET", "/archetypes"),
    PUT_ARCHETYPE("PUT", "/archetypes/{name}"),
    GET_ARCHETYPE("GET", "/archetypes/{name}"),
    PUT_CALENDAR("PUT", "/calendars/{name}"),
    GET_CALENDAR("GET", "/calendars/{name}"),
    GET_RUN("GET", "/runs/{runId}"),
    PUT_SENSOR("PUT", "/sensors/{name}"),
    HEALTH("GET", "/health");

    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{([A-Za-z]+)}");

    private final String method;
    private final String path;

    ApiRoute(String method, String path) {
        this.method = method;
        this.path = path;
    }

    /** HTTP method in upper case. */
    public String method() {
        return method;
    }

    /** Path template with {@code {name}} parameters, e.g. {@code /pipelines/{id}/runs}. */
    public String path() {
        return path;
    }

    /** Names of the path parameters in order of appearance, e.g. {@code [id]}. */
    public List<String> pathParameters() {
        List<String> names = new ArrayList<>();
        Matcher m = PATH_PARAMETER.matcher(path);
        while (m.find()) {
            names.add(m.group(1));
        }
        return List.copyOf(names);
    }

    /** Whether the route takes a request body (JSON or YAML). */
    public boolean hasBody() {
        return method.equals("PUT") || method.equals("POST");
    }
}
