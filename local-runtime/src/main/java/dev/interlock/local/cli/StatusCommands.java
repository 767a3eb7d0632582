package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.schedule.ReadableTime;
import java.io.PrintStream;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code status} and {@code why}: the API's status of pipeline days, as tables and as a readable explanation. */
final class StatusCommands {

    private StatusCommands() {}

    @Command(
            name = "status",
            description =
                    "Show where pipeline days stand: every pipeline (one line each), or one pipeline's schedules.")
    static final class Status implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Parameters(index = "0", arity = "0..1", description = "A pipeline id (default: every pipeline).")
        String pipeline;

        @Option(names = "--date", description = "Execution date YYYY-MM-DD (default: today in each pipeline's zone).")
        String date;

        @Option(
                names = "--state",
                paramLabel = "<STATE>",
                split = ",",
                description = "Only the pipelines whose day is in this state (NOT_READY, FAILED, RUNNING, …); "
                        + "repeatable or comma-separated. Without a pipeline id only.")
        List<String> states;

        @Option(
                names = "--team",
                paramLabel = "<TEAM>",
                split = ",",
                description = "Only the pipelines of this team (their 'team'); repeatable or comma-separated. Without"
                        + " a pipeline id only.")
        List<String> teams;

        @Mixin
        Output.Format format;

        @Override
        public Integer call() throws Exception {
            ApiClient client = api.client();
            if (pipeline != null && (states != null || teams != null)) {
                throw new CliFailure(
                        "--state and --team filter the fleet table; leave out the pipeline id, or read its schedules'"
                                + " states",
                        CliFailure.USAGE,
                        null);
            }
            java.util.Set<String> wanted = new java.util.TreeSet<>();
            if (states != null) {
                states.forEach(st ->
                        wanted.add(st.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_')));
            }
            String query = date == null ? "" : "date=" + ApiClient.segment(date);
            if (pipeline != null) {
                ApiClient.Answer a = client.get(
                        "/pipelines/" + ApiClient.segment(pipeline) + "/status" + (query.isEmpty() ? "" : "?" + query));
                if (!a.ok() || format.json()) {
                    return QueryCommands.print(a, "reading the status of " + pipeline);
                }
                printSchedules(System.out, Output.parse(a.body()));
                return 0;
            }
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"PIPELINE", "DATE", "STATE", "SLA", "NEXT", "REASON"});
            List<JsonNode> all = new ArrayList<>();
            java.util.Set<String> seen = new java.util.TreeSet<>();
            String cursor = null;
            do {
                String path = "/status?limit=100" + (query.isEmpty() ? "" : "&" + query)
                        + (cursor == null ? "" : "&cursor=" + ApiClient.segment(cursor));
                ApiClient.Answer a = client.get(path);
                if (!a.ok()) {
                    return QueryCommands.print(a, "reading the status of every pipeline");
                }
                JsonNode page = Output.parse(a.body());
                for (JsonNode line : page.path("items")) {
                    seen.add(line.path("state").asText());
                    if (!wanted.isEmpty() && !wanted.contains(line.path("state").asText())) {
                        continue;
                    }
                    if (teams != null && !teams.contains(line.path("team").asText(""))) {
                        continue;
                    }
                    all.add(line);
                    boolean muted = line.path("muted").path("state").asText().equals("active");
                    boolean paused = line.hasNonNull("paused")
                            && !line.path("state").asText().equals("PAUSED");
                    rows.add(new String[] {
                        line.path("pipelineId").asText(),
                        line.path("date").asText(),
                        line.path("state").asText() + (paused ? " (paused)" : "") + (muted ? " (muted)" : ""),
                        slaFlag(line.path("sla")),
                        next(
                                line.path("nextAction"),
                                ReadableTime.zone(line.path("zone").asText(null))),
                        line.path("reason").asText()
                    });
                }
                cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
            } while (cursor != null);
            if (format.json()) {
                Output.pretty(System.out, Output.items(all));
                return 0;
            }
            if (!wanted.isEmpty() && all.isEmpty()) {
                System.out.println("no pipeline day is " + String.join(" or ", wanted)
                        + (teams == null ? "" : " in team " + String.join(" or ", teams))
                        + (seen.isEmpty() ? "" : " (the states now: " + String.join(", ", seen) + ")"));
                return 0;
            }
            if (teams != null && all.isEmpty()) {
                System.out.println("no pipeline of team " + String.join(" or ", teams));
                return 0;
            }
            Output.table(System.out, rows);
            System.out.println(
                    (rows.size() - 1) + " pipeline(s)" + (wanted.isEmpty() ? "" : " " + String.join(" or ", wanted)));
            return 0;
        }
    }

    @Command(name = "why", description = "Explain in words why a pipeline day is where it is.")
    static final class Why implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(names = "--date", description = "Execution date YYYY-MM-DD (default: today in the pipeline's zone).")
        String date;

        @Mixin
        Output.Format format;

        @Override
        public Integer call() throws Exception {
            ApiClient.Answer a = api.client()
                    .get("/pipelines/" + ApiClient.segment(pipeline) + "/status"
                            + (date == null ? "" : "?date=" + ApiClient.segment(date)));
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "reading the status of " + pipeline);
            }
            explain(System.out, Output.parse(a.body()));
            return 0;
        }
    }

    static void printSchedules(PrintStream out, JsonNode status) {
        out.println(status.path("pipelineId").asText() + " on "
                + status.path("date").asText() + " (" + status.path("zone").asText() + ")");
        ownership(out, status);
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"SCHEDULE", "STATE", "SLA", "ATTEMPTS", "NEXT", "DEADLINE", "REASON"});
        for (JsonNode s : status.path("schedules")) {
            ZoneId zone = zoneOf(status, s);
            rows.add(new String[] {
                s.path("scheduleId").asText(),
                s.path("state").asText(),
                slaFlag(s.path("sla")),
                s.path("attempts").path("used").asInt() + "/"
                        + s.path("attempts").path("max").asInt(),
                next(s.path("nextAction"), zone),
                deadline(s.path("deadline"), zone),
                s.path("reason").asText()
            });
        }
        Output.table(out, rows);
        for (JsonNode s : status.path("schedules")) {
            traitTable(out, "blocking " + s.path("scheduleId").asText(), s.path("blocking"));
            traitTable(
                    out,
                    "warnings " + s.path("scheduleId").asText() + " (optional traits, never blocking)",
                    s.path("warnings"));
            if (s.hasNonNull("forced")) {
                out.println();
                out.println(s.path("scheduleId").asText() + " " + forced(s, zoneOf(status, s)));
            } else if (!s.path("proceededWithout").isEmpty()) {
                out.println();
                out.println("proceeded without " + s.path("scheduleId").asText() + ": "
                        + names(s.path("proceededWithout")) + " (past readinessRule.proceedAt)");
            }
            if (!s.path("dryRun").isEmpty()) {
                out.println();
                out.println("dry run " + s.path("scheduleId").asText() + " (recorded, not done):");
                List<String[]> records = new ArrayList<>();
                records.add(new String[] {"AT", "EVENT", "STATUS", "MESSAGE"});
                for (JsonNode d : s.path("dryRun")) {
                    records.add(new String[] {
                        Output.time(d, "at", zoneOf(status, s)),
                        d.path("kind").asText(),
                        d.path("status").asText(),
                        d.path("message").asText()
                    });
                }
                Output.table(out, records);
            }
        }
    }

    /** Whose the pipeline is and where its runbook is (when it says), and the mute on its alerts (when one). */
    static void ownership(PrintStream out, JsonNode status) {
        JsonNode o = status.path("ownership");
        List<String> parts = new ArrayList<>();
        if (o.hasNonNull("owner")) {
            parts.add("owner " + o.get("owner").asText());
        }
        if (o.hasNonNull("team")) {
            parts.add("team " + o.get("team").asText());
        }
        if (o.hasNonNull("runbook")) {
            parts.add("runbook " + o.get("runbook").asText());
        }
        if (!parts.isEmpty()) {
            out.println(String.join(", ", parts));
        }
        String muted = muted(
                status.path("muted"), ReadableTime.zone(status.path("zone").asText(null)));
        if (muted != null) {
            out.println(muted);
        }
        String paused = paused(
                status.path("paused"), ReadableTime.zone(status.path("zone").asText(null)));
        if (paused != null) {
            out.println(paused);
        }
    }

    /** {@code PAUSED since … by …: reason; …}, or null when the pipeline runs. */
    static String paused(JsonNode pause, ZoneId zone) {
        if (pause.isMissingNode() || pause.isNull()) {
            return null;
        }
        return "PAUSED since " + Output.time(pause, "pausedAt", zone) + " by "
                + pause.path("pausedBy").asText() + ": "
                + pause.path("reason").asText() + "; no new execution starts until 'interlock resume "
                + pause.path("pipelineId").asText() + "'";
    }

    /** {@code ALERTS MUTED (team data-platform) until … by …: reason}, or null when no mute covers it. */
    static String muted(JsonNode mute, ZoneId zone) {
        if (mute.isMissingNode() || mute.isNull()) {
            return null;
        }
        boolean active = mute.path("state").asText().equals("active");
        return (active ? "ALERTS MUTED" : "alerts will be muted") + " ("
                + mute.path("scope").asText() + " "
                + mute.path("target").asText() + ") "
                + (active ? "" : "from " + Output.time(mute, "from", zone) + " ")
                + "until " + Output.time(mute, "until", zone) + " by "
                + mute.path("mutedBy").asText() + ": "
                + mute.path("reason").asText();
    }

    /** A JSON list of trait names as {@code a, b}. */
    private static String names(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.forEach(n -> names.add(n.asText()));
        return String.join(", ", names);
    }

    /** One trait as {@code why} says it: {@code <trait> is <STATUS>: <reason> (observed <value>)}. */
    private static String seen(JsonNode trait) {
        return trait.path("traitType").asText() + " is "
                + trait.path("status").asText()
                + (trait.hasNonNull("reason") ? ": " + trait.get("reason").asText() : "")
                + (trait.hasNonNull("value") ? " (observed " + trait.get("value") + ")" : "");
    }

    /** A titled table of traits as the status shows them (blocking or warnings); nothing when there are none. */
    private static void traitTable(PrintStream out, String title, JsonNode shown) {
        if (shown.isEmpty()) {
            return;
        }
        out.println();
        out.println(title + ":");
        List<String[]> traits = new ArrayList<>();
        traits.add(new String[] {"TRAIT", "STATUS", "OBSERVED", "REASON"});
        for (JsonNode b : shown) {
            traits.add(new String[] {
                b.path("traitType").asText(),
                b.path("status").asText(),
                b.hasNonNull("value") ? b.get("value").toString() : "",
                b.path("reason").asText()
            });
        }
        Output.table(out, traits);
    }

    static void explain(PrintStream out, JsonNode status) {
        String pipeline = status.path("pipelineId").asText();
        ownership(out, status);
        for (JsonNode s : status.path("schedules")) {
            ZoneId zone = zoneOf(status, s);
            out.println(pipeline + " (" + s.path("scheduleId").asText() + ") on "
                    + status.path("date").asText() + " is " + s.path("state").asText() + ": "
                    + s.path("reason").asText() + ".");
            for (JsonNode b : s.path("blocking")) {
                out.println("  - trait " + seen(b));
            }
            for (JsonNode w : s.path("warnings")) {
                out.println("  - warning: optional trait " + seen(w) + " (never blocks)");
            }
            if (s.hasNonNull("forced")) {
                out.println("  - " + forced(s, zone));
            } else if (!s.path("proceededWithout").isEmpty()) {
                out.println("  - proceeded without " + names(s.path("proceededWithout"))
                        + " (readinessRule.proceedAt had passed and its essential traits passed)");
            }
            for (JsonNode u : s.path("upstreams")) {
                out.println("  - upstream " + u.path("pipelineId").asText() + " ("
                        + u.path("scheduleId").asText() + ") is "
                        + u.path("state").asText() + ": " + u.path("reason").asText());
            }
            for (JsonNode d : s.path("dryRun")) {
                out.println("  - " + d.path("kind").asText() + " at " + Output.time(d, "at", zone) + ": "
                        + d.path("message").asText());
            }
            if (s.hasNonNull("monitoring")) {
                JsonNode m = s.get("monitoring");
                out.println("  Monitoring ends at " + Output.time(m, "endsAt", zone)
                        + (m.hasNonNull("nextRoundAt") ? "; next round at " + Output.time(m, "nextRoundAt", zone) : "")
                        + " (job completed at " + Output.time(m, "startedAt", zone) + ").");
            }
            if (s.hasNonNull("nextAction")) {
                out.println("  Next: " + next(s.path("nextAction"), zone) + ".");
            }
            if (s.hasNonNull("deadline")) {
                out.println("  Deadline: " + deadline(s.path("deadline"), zone) + ".");
            }
            if (s.hasNonNull("sla")) {
                out.println("  SLA: " + sla(s.path("sla"), zone) + ".");
            }
            out.println("  Attempts: " + s.path("attempts").path("used").asInt() + " of "
                    + s.path("attempts").path("max").asInt() + " failed."
                    + (s.hasNonNull("lockHolder")
                            ? " Execution " + s.get("lockHolder").asText() + " holds the lock."
                            : ""));
            if (s.hasNonNull("runId")) {
                JsonNode job = s.path("job");
                out.println("  Run " + s.get("runId").asText()
                        + (s.hasNonNull("runStatus") ? " (" + s.get("runStatus").asText() + ")" : "")
                        + (job.hasNonNull("id") ? ", job " + job.get("id").asText() : "")
                        + (job.hasNonNull("link") ? " " + job.get("link").asText() : "") + ".");
            }
        }
    }

    /**
     * The zone a schedule's times are shown in: its window's (the schedule's own zone), else the pipeline's, as the
     * status names them.
     */
    static ZoneId zoneOf(JsonNode status, JsonNode schedule) {
        String zone = schedule.path("window").path("zone").asText("");
        return ReadableTime.zone(zone.isBlank() ? status.path("zone").asText(null) : zone);
    }

    private static String next(JsonNode next, ZoneId zone) {
        if (next == null || next.isMissingNode() || next.isNull()) {
            return "-";
        }
        return next.path("what").asText() + (next.hasNonNull("at") ? " at " + Output.time(next, "at", zone) : "");
    }

    private static String deadline(JsonNode deadline, ZoneId zone) {
        if (deadline == null || deadline.isMissingNode() || deadline.isNull()) {
            return "-";
        }
        return deadline.path("what").asText() + " " + Output.time(deadline, "at", zone)
                + (deadline.path("breached").asBoolean() ? " (passed)" : "");
    }

    /** The SLA flag in a table cell: {@code MISSED -14m}, {@code AT_RISK 12m}, {@code -} without one. */
    private static String slaFlag(JsonNode sla) {
        if (sla == null || sla.isMissingNode() || sla.isNull()) {
            return "-";
        }
        return sla.path("state").asText()
                + (sla.hasNonNull("marginSeconds")
                        ? " " + span(sla.get("marginSeconds").asLong())
                        : "");
    }

    /**
     * The SLA flag in words: {@code MISSED: 14m past the completion deadline <at>; delays <pipeline> <date>}, or
     * {@code ON_TRACK: 2h05m before the evaluation deadline <at>}.
     */
    static String sla(JsonNode sla, ZoneId zone) {
        long margin = sla.path("marginSeconds").asLong();
        String where = !sla.hasNonNull("marginSeconds")
                ? "the " + sla.path("what").asText() + " deadline "
                : span(Math.abs(margin)) + (margin < 0 ? " past the " : " before the ")
                        + sla.path("what").asText() + " deadline ";
        List<String> delays = new ArrayList<>();
        for (JsonNode d : sla.path("delays")) {
            delays.add(d.path("pipelineId").asText() + " " + d.path("date").asText());
        }
        return sla.path("state").asText() + ": " + where + Output.time(sla, "deadline", zone)
                + (delays.isEmpty() ? "" : "; delays " + String.join(", ", delays));
    }

    /** A signed span of seconds as {@code 1h05m}, {@code 14m}, {@code 45s} ({@code -} before it when negative). */
    private static String span(long seconds) {
        String sign = seconds < 0 ? "-" : "";
        long s = Math.abs(seconds);
        if (s >= 3600) {
            return sign + (s / 3600) + "h" + String.format(java.util.Locale.ROOT, "%02d", (s % 3600) / 60) + "m";
        }
        return sign + (s >= 60 ? (s / 60) + "m" : s + "s");
    }

    /** A day an operator forced ready: who, when, why, and what its run went without. */
    static String forced(JsonNode s, ZoneId zone) {
        JsonNode f = s.path("forced");
        return "forced ready by " + f.path("by").asText() + ": "
                + f.path("reason").asText() + " (at "
                + Output.time(f, "at", zone)
                + (s.path("proceededWithout").isEmpty()
                        ? ""
                        : "; proceeded without " + names(s.path("proceededWithout")))
                + ")";
    }
}
