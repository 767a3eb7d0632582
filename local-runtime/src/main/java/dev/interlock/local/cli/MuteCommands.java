package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mute}, {@code unmute} and {@code mutes}: silence a pipeline's or a team's alerts for a window (audited). */
final class MuteCommands {

    private MuteCommands() {}

    /** A pipeline mute's times read in the pipeline's zone; a team's pipelines may have several: UTC (+00:00). */
    private static java.time.ZoneId zoneOf(PipelineZones zones, JsonNode mute) {
        return mute.path("scope").asText().equals(dev.interlock.model.alert.MuteScope.PIPELINE.wireName())
                ? zones.of(mute.path("target").asText(null), null)
                : java.time.ZoneOffset.UTC;
    }

    /** A pipeline id, or {@code --team <team>}. */
    static final class Target {
        @Parameters(index = "0", arity = "0..1", description = "The pipeline id (or give --team).")
        String pipeline;

        @Option(names = "--team", description = "Mute every pipeline of this team (its 'team') instead.")
        String team;

        String path() {
            if ((pipeline == null) == (team == null)) {
                throw new CliFailure("name a pipeline or --team <team> (one of them)", CliFailure.USAGE, null);
            }
            return pipeline != null
                    ? "/mutes/pipelines/" + ApiClient.segment(pipeline)
                    : "/mutes/teams/" + ApiClient.segment(team);
        }

        String describe() {
            return pipeline != null ? "pipeline " + pipeline : "team " + team;
        }
    }

    @Command(
            name = "mute",
            description = {
                "Mute a pipeline's (or a team's) alerts for a window, with a reason: alerts raised meanwhile are not",
                "published but recorded as ALERT_MUTED events of their day. Audited (MUTED); at most 7 days."
            })
    static final class Mute implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Mixin
        Target target = new Target();

        /** How long, or until when: exactly one. */
        static final class End {
            @Option(names = "--for", description = "How long from its start, e.g. 2h, 30m, 48h.")
            String duration;

            @Option(names = "--until", description = "When it ends, e.g. 2026-03-01T06:00:00Z.")
            String until;
        }

        @ArgGroup(exclusive = true, multiplicity = "1")
        End end;

        @Option(names = "--from", description = "When it starts (default: now), e.g. a planned maintenance window.")
        String from;

        @Option(
                names = "--reason",
                required = true,
                description = "Why, for everyone who wonders where the alerts went.")
        String reason;

        @Override
        public Integer call() {
            ObjectNode body = Output.json().createObjectNode();
            body.put("reason", reason);
            if (end.duration != null) {
                body.put("for", end.duration);
            }
            if (end.until != null) {
                body.put("until", end.until);
            }
            if (from != null) {
                body.put("from", from);
            }
            ApiClient client = api.client();
            ApiClient.Answer a = client.put(target.path(), "application/json", body.toString());
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "muting " + target.describe());
            }
            JsonNode m = Output.parse(a.body());
            java.time.ZoneId zone = zoneOf(new PipelineZones(client), m);
            System.out.println("muted " + target.describe() + " "
                    + m.path("state").asText() + " from " + Output.time(m, "from", zone) + " until "
                    + Output.time(m, "until", zone) + ": " + m.path("reason").asText());
            List<String> covered = new ArrayList<>();
            m.path("pipelines").forEach(p -> covered.add(p.asText()));
            System.out.println("  covers " + (covered.isEmpty() ? "no pipeline yet" : String.join(", ", covered))
                    + "; alerts raised meanwhile are recorded as ALERT_MUTED events, not published");
            return 0;
        }
    }

    @Command(name = "unmute", description = "Lift a pipeline's (or a team's) mute before its end (audited: UNMUTED).")
    static final class Unmute implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Mixin
        Target target = new Target();

        @Option(names = "--reason", description = "Why, for the UNMUTED audit event.")
        String reason;

        @Override
        public Integer call() {
            String path = target.path() + (reason == null ? "" : "?reason=" + ApiClient.segment(reason));
            ApiClient.Answer a = api.client().delete(path);
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "unmuting " + target.describe());
            }
            System.out.println("unmuted " + target.describe() + "; its alerts are published again");
            return 0;
        }
    }

    @Command(name = "mutes", description = "List the mutes: active, planned, and those ended within the last week.")
    static final class Mutes implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Override
        public Integer call() {
            ApiClient client = api.client();
            ApiClient.Answer a = client.get("/mutes");
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "listing mutes");
            }
            PipelineZones zones = new PipelineZones(client);
            JsonNode items = Output.parse(a.body()).path("items");
            if (items.isEmpty()) {
                System.out.println("no mutes: every alert is published");
                return 0;
            }
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"SCOPE", "TARGET", "STATE", "FROM", "UNTIL", "BY", "REASON"});
            for (JsonNode m : items) {
                java.time.ZoneId zone = zoneOf(zones, m);
                rows.add(new String[] {
                    Output.text(m, "scope"),
                    Output.text(m, "target"),
                    Output.text(m, "state"),
                    Output.time(m, "from", zone),
                    Output.time(m, "until", zone),
                    Output.text(m, "mutedBy"),
                    Output.text(m, "reason")
                });
            }
            Output.table(System.out, rows);
            System.out.println(items.size() + " mute(s)");
            return 0;
        }
    }
}
