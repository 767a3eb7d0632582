package dev.interlock.api;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The API's routes ({@code METHOD /template/{param}}) and the matching of a request path against them. The same
 * list is what the OpenAPI document is checked against.
 */
public final class RouteTable {

    /** What a route does. */
    @FunctionalInterface
    public interface Action {
        ApiResponse handle(ApiRequest request, Map<String, String> pathParameters);
    }

    /** One route. */
    public record Route(String method, String template, Action action) {
        List<String> segments() {
            return split(template);
        }
    }

    /** A matched route and its decoded path parameters. */
    public record Match(Route route, Map<String, String> pathParameters) {}

    private final List<Route> routes;

    public RouteTable(List<Route> routes) {
        this.routes = List.copyOf(routes);
    }

    public List<Route> routes() {
        return routes;
    }

    /** The route for {@code method path}; 404 when no template matches the path, 405 when only the method is wrong. */
    public Match resolve(String method, String path) {
        List<String> segments = decode(split(path));
        List<String> allowed = new ArrayList<>();
        for (Route route : routes) {
            Map<String, String> parameters = match(route.segments(), segments);
            if (parameters == null) {
                continue;
            }
            if (route.method().equals(method)) {
                return new Match(route, parameters);
            }
            allowed.add(route.method());
        }
        if (allowed.isEmpty()) {
            throw ProblemException.of(ProblemType.NOT_FOUND, "no resource at " + path);
        }
        throw ProblemException.methodNotAllowed(method, path, allowed);
    }

    private static Map<String, String> match(List<String> template, List<String> path) {
        if (template.size() != path.size()) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < template.size(); i++) {
            String t = template.get(i);
            if (t.startsWith("{") && t.endsWith("}")) {
                parameters.put(t.substring(1, t.length() - 1), path.get(i));
            } else if (!t.equals(path.get(i))) {
                return null;
            }
        }
        return parameters;
    }

    private static List<String> split(String path) {
        List<String> segments = new ArrayList<>();
        for (String s : path.split("/", -1)) {
            if (!s.isEmpty()) {
                segments.add(s);
            }
        }
        return segments;
    }

    /** Percent-decodes each segment ('+' stays '+' in a path); a broken escape is a 400. */
    private static List<String> decode(List<String> segments) {
        List<String> decoded = new ArrayList<>(segments.size());
        for (String segment : segments) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (int i = 0; i < segment.length(); i++) {
                char c = segment.charAt(i);
                if (c == '%') {
                    if (i + 2 >= segment.length()
                            || Character.digit(segment.charAt(i + 1), 16) < 0
                            || Character.digit(segment.charAt(i + 2), 16) < 0) {
                        throw ProblemException.invalid(
                                "path", "malformed percent-escape in path segment '" + segment + "'");
                    }
                    bytes.write(Integer.parseInt(segment.substring(i + 1, i + 3), 16));
                    i += 2;
                } else {
                    int end = i + Character.charCount(segment.codePointAt(i));
                    byte[] raw = segment.substring(i, end).getBytes(StandardCharsets.UTF_8);
                    bytes.write(raw, 0, raw.length);
                    i = end - 1;
                }
            }
            decoded.add(bytes.toString(StandardCharsets.UTF_8));
        }
        return decoded;
    }
}
