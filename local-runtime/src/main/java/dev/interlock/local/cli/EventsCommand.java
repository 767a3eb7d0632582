package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.validation.ClosestName;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code interlock events <pipeline> [--date D] [--kind K]}: a pipeline's audit trail ({@code GET
 * /pipelines/{id}/events}, oldest first, every page) as a table. The route pages and nothing else, so the day and the
 * kinds are chosen here, after reading.
 */
@Command(
        name = "events",
        description = "Show a pipeline's events (its audit trail), oldest first: time, day, schedule, kind, status, "
                + "message.")
final class EventsCommand implements Callable<Integer> {

    @Mixin
    ApiOptions api;

    @Mixin
    Output.Format format;

    @Parameters(index = "0", description = "The pipeline id.")
    String pipeline;

    @Option(names = "--date", description = "Only the events of this execution date YYYY-MM-DD.")
    String date;

    @Option(
            names = "--kind",
            split = ",",
            paramLabel = "<KIND>",
            description = "Only events of this kind (TRIGGER_FIRED, RETRY_EXHAUSTED, SLA_BREACHED, …); repeatable or "
                    + "comma-separated.")
    List<String> kinds;

    @Override
    public Integer call() {
        if (date != null) {
            try {
                LocalDate.parse(date);
            } catch (DateTimeParseException e) {
                throw new CliFailure("--date '" + date + "' is not a date YYYY-MM-DD", CliFailure.USAGE, e);
            }
        }
        Set<String> wanted = wantedKinds();
        ApiClient client = api.client();
        List<JsonNode> events = new ArrayList<>();
        String cursor = null;
        do {
            ApiClient.Answer a = client.get("/pipelines/" + ApiClient.segment(pipeline) + "/events?limit=100"
                    + (cursor == null ? "" : "&cursor=" + ApiClient.segment(cursor)));
            if (!a.ok()) {
                return QueryCommands.print(a, "reading the events of " + pipeline);
            }
            JsonNode page = Output.parse(a.body());
            for (JsonNode e : page.path("items")) {
                if ((date == null || date.equals(e.path("date").asText()))
                        && (wanted.isEmpty() || wanted.contains(e.path("kind").asText()))) {
                    events.add(e);
                }
            }
            cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
        } while (cursor != null);
        if (format.json()) {
            Output.pretty(System.out, Output.items(events));
            return 0;
        }
        if (events.isEmpty()) {
            System.out.println("no events of " + pipeline + (date == null ? "" : " on " + date)
                    + (wanted.isEmpty() ? "" : " of kind " + String.join(" or ", wanted)));
            return 0;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"TIME", "DATE", "SCHEDULE", "KIND", "STATUS", "MESSAGE"});
        PipelineZones zones = new PipelineZones(client);
        for (JsonNode e : events) {
            ZoneId zone = zones.of(pipeline, e.path("scheduleId").asText(null));
            String message = ReadableTime.inText(e.path("message").asText(""), zone);
            rows.add(new String[] {
                Output.time(e, "timestamp", zone),
                Output.text(e, "date"),
                Output.text(e, "scheduleId"),
                Output.text(e, "kind"),
                Output.text(e, "status"),
                e.hasNonNull("traitType") ? e.get("traitType").asText() + ": " + message : message
            });
        }
        Output.table(System.out, rows);
        System.out.println(events.size() + " event(s)");
        return 0;
    }

    /** The kinds asked for, upper case; one the system never records is a mistake worth a suggestion. */
    private Set<String> wantedKinds() {
        Set<String> wanted = new TreeSet<>();
        if (kinds == null) {
            return wanted;
        }
        List<String> known =
                Arrays.stream(EventKind.values()).map(EventKind::wireName).collect(Collectors.toList());
        for (String k : kinds) {
            String kind = k.trim().toUpperCase(Locale.ROOT).replace('-', '_');
            if (!known.contains(kind)) {
                throw new CliFailure(
                        "--kind '" + k + "' is not an event kind" + ClosestName.hint(kind, known),
                        CliFailure.USAGE,
                        null);
            }
            wanted.add(kind);
        }
        return wanted;
    }
}
