package dev.interlock.api;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.store.InvalidCursorException;
import dev.interlock.store.Provider;
import dev.interlock.store.StoreException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The registration API (docs/api.md): routes a request and maps every refusal to a problem document. Bad input is always
 * a 4xx; only a store outage answers 503, and a defect 500 (logged).
 */
public final class Api {

    private static final int MAX_LOGGED_PATH = 256;

    private final RouteTable routes;
    private final RequestBody body;
    private final StructuredLog log;

    public Api(Provider provider, Clock clock, ApiSettings settings, Identifiers ids, StructuredLog log) {
        this(provider, clock, settings, ids, log, HolderExecutions.NONE);
    }

    /** With the state machine's executions, which the operator's unlock asks about a lock's holder. */
    Api(
            Provider provider,
            Clock clock,
            ApiSettings settings,
            Identifiers ids,
            StructuredLog log,
            HolderExecutions executions) {
        this.body = new RequestBody(settings.maxBodyBytes());
        this.log = log;
        ReferenceChecks references = new ReferenceChecks(provider, settings.outbound());
        MarkerRoutes markers = new MarkerRoutes(provider, body, settings, clock, ids);
        PipelineRoutes pipelines = new PipelineRoutes(
                provider, body, settings, references, new StoppedDays(provider, settings, markers), clock);
        ArchetypeRoutes archetypes = new ArchetypeRoutes(provider, body, references);
        CalendarRoutes calendars = new CalendarRoutes(provider, body, references);
        HistoryRoutes history = new HistoryRoutes(provider);
        SensorArrivals arrivals = new SensorArrivals(provider, references, settings, clock);
        SensorRoutes sensors = new SensorRoutes(provider, body, clock, arrivals);
        LineageRoutes lineage = new LineageRoutes(provider, body, clock, arrivals);
        LockRoutes locks = new LockRoutes(provider, clock, executions);
        StatusRoutes status = new StatusRoutes(provider, clock);
        MuteRoutes mutes = new MuteRoutes(provider, body, clock);
        PauseRoutes pauses = new PauseRoutes(provider, body, clock);
        BackfillRoutes backfills = new BackfillRoutes(provider, body, clock, ids);
        AlertRoutes alerts = new AlertRoutes(provider);
        ForceReadyRoutes forces = new ForceReadyRoutes(provider, body, clock, markers);
        this.routes = new RouteTable(List.of(
                new RouteTable.Route("GET", "/pipelines", pipelines::list),
                new RouteTable.Route("PUT", "/pipelines/{id}", pipelines::put),
                new RouteTable.Route("GET", "/pipelines/{id}", pipelines::get),
                new RouteTable.Route("DELETE", "/pipelines/{id}", pipelines::delete),
                new RouteTable.Route("POST", "/pipelines/{id}/validate", pipelines::validate),
                new RouteTable.Route("POST", "/pipelines/{id}/evaluations", markers::evaluate),
                new RouteTable.Route("POST", "/pipelines/{id}/reruns", markers::rerun),
                new RouteTable.Route("GET", "/pipelines/{id}/reruns", history::reruns),
                new RouteTable.Route("GET", "/pipelines/{id}/runs", history::runs),
                new RouteTable.Route("GET", "/pipelines/{id}/runlogs", history::runLogs),
                new RouteTable.Route("GET", "/pipelines/{id}/events", history::events),
                new RouteTable.Route("GET", "/pipelines/{id}/traits", history::traits),
                new RouteTable.Route("GET", "/pipelines/{id}/locks/{scheduleId}/{date}", locks::get),
                new RouteTable.Route("DELETE", "/pipelines/{id}/locks/{scheduleId}/{date}", locks::release),
                new RouteTable.Route("POST", "/pipelines/{id}/pause", pauses::pause),
                new RouteTable.Route("POST", "/pipelines/{id}/resume", pauses::resume),
                new RouteTable.Route("GET", "/pauses", pauses::list),
                new RouteTable.Route("POST", "/pipelines/{id}/backfills", backfills::create),
                new RouteTable.Route("GET", "/pipelines/{id}/backfills", backfills::listOfPipeline),
                new RouteTable.Route("GET", "/backfills", backfills::list),
                new RouteTable.Route("GET", "/backfills/{backfillId}", backfills::get),
                new RouteTable.Route("POST", "/backfills/{backfillId}/cancel", backfills::cancel),
                new RouteTable.Route("GET", "/pipelines/{id}/status", status::pipeline),
                new RouteTable.Route("GET", "/pipelines/{id}/timeline", status::timeline),
                new RouteTable.Route("GET", "/status", status::all),
                new RouteTable.Route("GET", "/runs/{runId}", history::run),
                new RouteTable.Route("GET", "/alerts", alerts::list),
                new RouteTable.Route("GET", "/archetypes", archetypes::list),
                new RouteTable.Route("PUT", "/archetypes/{name}", archetypes::put),
                new RouteTable.Route("GET", "/archetypes/{name}", archetypes::get),
                new RouteTable.Route("POST", "/archetypes/{name}/validate", archetypes::validate),
                new RouteTable.Route("PUT", "/calendars/{name}", calendars::put),
                new RouteTable.Route("GET", "/calendars/{name}", calendars::get),
                new RouteTable.Route("POST", "/calendars/{name}/validate", calendars::validate),
                new RouteTable.Route("DELETE", "/calendars/{name}", calendars::delete),
                new RouteTable.Route("PUT", "/sensors/{name}", sensors::put),
                new RouteTable.Route("GET", "/sensors/{name}", sensors::get),
                new RouteTable.Route("PUT", "/sensors/{name}/partitions/{partition}", sensors::putPartition),
                new RouteTable.Route("GET", "/sensors/{name}/partitions/{partition}", sensors::getPartition),
                new RouteTable.Route("POST", "/lineage", lineage::post),
                new RouteTable.Route("GET", "/mutes", mutes::list),
                new RouteTable.Route("PUT", "/mutes/{scope}/{target}", mutes::put),
                new RouteTable.Route("DELETE", "/mutes/{scope}/{target}", mutes::delete),
                new RouteTable.Route("POST", "/pipelines/{id}/days/{date}/force-ready", forces::force),
                new RouteTable.Route("GET", "/health", (request, path) -> {
                    provider.ping();
                    return ApiResponse.json(200, Map.of("status", "ok", "time", clock.instant()));
                })));
    }

    /** The route table (the OpenAPI document is checked against it). */
    public RouteTable routes() {
        return routes;
    }

    /** Answers one request; never throws. Every answer leaves one structured line (never the body). */
    public ApiResponse handle(ApiRequest request) {
        ApiResponse response = answer(request);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("method", request.method());
        fields.put(
                "path",
                request.path().length() > MAX_LOGGED_PATH
                        ? request.path().substring(0, MAX_LOGGED_PATH) + "…"
                        : request.path());
        fields.put("status", response.status());
        fields.put("caller", request.caller());
        if (response.status() >= 400) {
            fields.put(
                    "problem", InterlockJson.tree(response.body()).path("type").asText());
        }
        log.info(LogContext.NONE, "request answered", fields);
        return response;
    }

    private ApiResponse answer(ApiRequest request) {
        try {
            body.checkSize(request);
            RouteTable.Match match = routes.resolve(request.method(), request.path());
            return match.route().action().handle(request, match.pathParameters());
        } catch (ProblemException e) {
            return ApiResponse.problem(e.problem(), e.allowedMethods());
        } catch (InvalidCursorException e) {
            return ApiResponse.problem(
                    ProblemException.invalid("query.cursor", e.getMessage()).problem(), List.of());
        } catch (StoreException e) {
            log.error(
                    LogContext.NONE,
                    "store unavailable",
                    Map.of("method", request.method(), "path", request.path()),
                    e);
            return ApiResponse.problem(
                    Problem.of(ProblemType.STORE_UNAVAILABLE, "the store did not answer; retry later", List.of()),
                    List.of());
        } catch (RuntimeException e) {
            log.error(LogContext.NONE, "request failed", Map.of("method", request.method(), "path", request.path()), e);
            return ApiResponse.problem(Problem.of(ProblemType.INTERNAL_ERROR, "internal error", List.of()), List.of());
        }
    }
}
