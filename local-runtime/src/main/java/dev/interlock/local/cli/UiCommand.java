package dev.interlock.local.cli;

import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.http.LoopbackHttpServer;
import dev.interlock.local.ui.UiAssets;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code interlock ui}: the web UI for any Interlock API, above all a deployed one whose API Gateway only answers
 * signed requests. It serves the UI's files on 127.0.0.1 and forwards the UI's reads to {@code --endpoint}, signed
 * with SigV4 by the same {@link ApiClient} every other command uses, so the deployed API stays private. Only GET is
 * forwarded: a page in the browser can never write through it.
 */
@Command(
        name = "ui",
        description = "Open the web UI for an Interlock API (e.g. the deployed API Gateway URL, signed with SigV4).")
final class UiCommand implements Callable<Integer> {

    @Mixin
    ApiOptions api;

    @Option(
            names = "--port",
            defaultValue = "8090",
            description = "Local port of the UI (default ${DEFAULT-VALUE}; 0 = any free port).")
    int port;

    @Override
    public Integer call() throws Exception {
        ApiClient client = api.client();
        try (LoopbackHttpServer server = start(port, client)) {
            System.out.println("interlock: web UI for " + api.endpoint + " at " + server.endpoint() + UiAssets.PREFIX
                    + " — Ctrl-C to stop.");
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "interlock-ui-shutdown"));
            stopped.await();
        }
        return 0;
    }

    /** Serves the UI and forwards its reads to {@code client}'s endpoint. */
    static LoopbackHttpServer start(int port, ApiClient client) throws IOException {
        return LoopbackHttpServer.start(port, exchange -> handle(exchange, client));
    }

    private static void handle(HttpExchange exchange, ApiClient client) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/")) {
            exchange.getResponseHeaders().add("Location", UiAssets.PREFIX);
            exchange.sendResponseHeaders(308, -1);
            return;
        }
        if (UiAssets.handles(path)) {
            UiAssets.serve(exchange);
            return;
        }
        if (!"GET".equals(exchange.getRequestMethod())) {
            LoopbackHttpServer.send(
                    exchange,
                    405,
                    Map.of("Allow", "GET", "Content-Type", "application/json"),
                    "{\"message\":\"the UI server only forwards reads\"}");
            return;
        }
        String raw = exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null
                        ? ""
                        : "?" + exchange.getRequestURI().getRawQuery());
        ApiClient.Answer answer;
        try {
            answer = client.get(raw);
        } catch (CliFailure e) {
            // The API could not be reached (or signed for): the page shows a gateway error, not a dead connection.
            LoopbackHttpServer.send(
                    exchange,
                    502,
                    Map.of("Content-Type", "application/json"),
                    Output.json()
                            .createObjectNode()
                            .put(
                                    "message",
                                    "the API did not answer: "
                                            + e.getMessage().lines().findFirst().orElse(""))
                            .toString());
            return;
        }
        String type = answer.ok() ? "application/json" : "application/problem+json";
        LoopbackHttpServer.send(
                exchange, answer.status(), Map.of("Content-Type", type, "Cache-Control", "no-store"), answer.body());
    }
}
