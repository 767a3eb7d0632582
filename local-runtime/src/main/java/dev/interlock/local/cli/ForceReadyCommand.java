package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code force-ready}: an operator's word that one pipeline day is ready whatever its traits say (audited). */
@Command(
        name = "force-ready",
        description = {
            "Force one day of a pipeline ready, with a reason: an evaluation of that day starts now and triggers",
            "without the traits that hold it back. The run log, status and why say who forced it and why; it is",
            "audited (event FORCED_READY) and alerted (FORCED_READY). It applies to that day and schedule only.",
            "Refused for a day that COMPLETED, a day whose job is running, and a paused pipeline."
        })
final class ForceReadyCommand implements Callable<Integer> {
    @Mixin
    ApiOptions api;

    @Mixin
    Output.Format format;

    @Parameters(index = "0", description = "The pipeline id.")
    String pipeline;

    @Option(names = "--date", required = true, description = "The day to force ready (YYYY-MM-DD).")
    LocalDate date;

    @Option(
            names = "--schedule",
            description = "The schedule (or cron window, e.g. hourly.1400); required when the pipeline has several.")
    String schedule;

    @Option(names = "--reason", required = true, description = "Why it may run without its traits; recorded.")
    String reason;

    @Option(
            names = "--expires-at",
            description = "When the force lapses if no evaluation used it (e.g. 2026-03-01T18:00:00Z); by default "
                    + "the end of the day after the date, in UTC.")
    String expiresAt;

    @Override
    public Integer call() {
        ObjectNode body = Output.json().createObjectNode();
        body.put("reason", reason);
        if (schedule != null) {
            body.put("scheduleId", schedule);
        }
        if (expiresAt != null) {
            body.put("expiresAt", expiresAt);
        }
        ApiClient.Answer a = api.client()
                .post("/pipelines/" + ApiClient.segment(pipeline) + "/days/" + date + "/force-ready", body.toString());
        if (!a.ok() || format.json()) {
            return QueryCommands.print(a, "forcing " + pipeline + " " + date + " ready");
        }
        JsonNode f = Output.parse(a.body());
        ZoneId zone = new PipelineZones(api.client())
                .of(pipeline, f.path("scheduleId").asText(null));
        System.out.println("forced " + pipeline + " " + f.path("scheduleId").asText() + " " + date + " ready at "
                + Output.time(f, "forcedAt", zone) + " by " + f.path("forcedBy").asText() + ": "
                + f.path("reason").asText());
        System.out.println("  evaluation " + f.path("executionName").asText() + " starts now; the force lapses at "
                + Output.time(f, "expiresAt", zone));
        return 0;
    }
}
