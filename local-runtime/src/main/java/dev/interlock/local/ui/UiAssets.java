package dev.interlock.local.ui;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The web UI's static files, packed into the local runtime's jar under {@code dev/interlock/local/ui/assets}: served
 * at {@code /ui/} by the local API and by {@code interlock ui}, with nothing fetched from anywhere else.
 */
public final class UiAssets {

    /** Where the UI lives on the API port. */
    public static final String PREFIX = "/ui/";

    private static final String ROOT = "/dev/interlock/local/ui/assets/";
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png");
    /** Only the UI's own resources: the same-origin API and inline SVG; no other origin, no inline scripts. */
    private static final String CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private UiAssets() {}

    /** Whether {@code path} is the UI's ({@code /ui} or below). */
    public static boolean handles(String path) {
        return path.equals("/ui") || path.startsWith(PREFIX);
    }

    /** Answers a request for a UI path: the file, a redirect from {@code /ui}, 404 or 405. */
    public static void serve(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().add("Allow", "GET, HEAD");
            send(exchange, 405, "text/plain; charset=utf-8", "method not allowed".getBytes());
            return;
        }
        if (path.equals("/ui")) {
            exchange.getResponseHeaders().add("Location", PREFIX);
            exchange.sendResponseHeaders(308, -1);
            return;
        }
        String name = path.substring(PREFIX.length());
        if (name.isEmpty()) {
            name = "index.html";
        }
        // Only flat, plain names: no traversal, no hidden files.
        if (!name.matches("[a-z0-9][a-z0-9.-]*") || name.contains("..")) {
            send(exchange, 404, "text/plain; charset=utf-8", ("no UI file " + name).getBytes());
            return;
        }
        String type = TYPES.get(name.substring(name.lastIndexOf('.') + 1));
        try (InputStream in = UiAssets.class.getResourceAsStream(ROOT + name)) {
            if (in == null || type == null) {
                send(exchange, 404, "text/plain; charset=utf-8", ("no UI file " + name).getBytes());
                return;
            }
            exchange.getResponseHeaders().add("Content-Security-Policy", CSP);
            exchange.getResponseHeaders().add("X-Content-Type-Options", "nosniff");
            exchange.getResponseHeaders().add("Cache-Control", "no-cache");
            send(exchange, 200, type, in.readAllBytes());
        }
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", type);
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }
}
