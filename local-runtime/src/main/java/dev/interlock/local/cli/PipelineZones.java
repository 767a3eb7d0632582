package dev.interlock.local.cli;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.ReadableTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The zone a listing's times are shown in: the schedule's ({@link ReadableTime#zoneOf(PipelineConfig, String)}),
 * read once per pipeline from {@code GET /pipelines/{id}}. A pipeline deleted since (or unreadable) is shown in UTC,
 * which every time still says by its {@code +00:00}.
 */
final class PipelineZones {

    private final ApiClient client;
    private final Map<String, Optional<PipelineConfig>> read = new HashMap<>();

    PipelineZones(ApiClient client) {
        this.client = client;
    }

    /** The same, with {@code pipelineId}'s answer to {@code GET /pipelines/{id}} already read by the caller. */
    PipelineZones read(String pipelineId, ApiClient.Answer config) {
        read.put(pipelineId, parse(config));
        return this;
    }

    /** The zone of {@code scheduleId} of {@code pipelineId} (its first schedule's, else the SLA's, when none given). */
    ZoneId of(String pipelineId, String scheduleId) {
        if (pipelineId == null || pipelineId.isBlank()) {
            return ZoneOffset.UTC;
        }
        Optional<PipelineConfig> config = read.computeIfAbsent(pipelineId, this::config);
        if (config.isEmpty()) {
            return ZoneOffset.UTC;
        }
        return ReadableTime.zoneOf(config.get(), "-".equals(scheduleId) ? null : scheduleId);
    }

    private Optional<PipelineConfig> config(String pipelineId) {
        return parse(client.get("/pipelines/" + ApiClient.segment(pipelineId)));
    }

    private static Optional<PipelineConfig> parse(ApiClient.Answer answer) {
        if (!answer.ok()) {
            return Optional.empty();
        }
        try {
            return Optional.of(InterlockJson.read(answer.body(), PipelineConfig.class));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
