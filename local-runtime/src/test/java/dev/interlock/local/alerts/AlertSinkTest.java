package dev.interlock.local.alerts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlertSinkTest {

    private final Clock clock = Clock.fixed(Instant.parse("2026-03-01T09:00:00Z"), ZoneOffset.UTC);

    @Test
    void aPersistentSinkReadsBackWhatItKeptAndSkipsALineCutShortByACrash(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("alerts.jsonl");
        try (AlertSink first = AlertSink.persistent(clock, a -> {}, file)) {
            first.receive("arn:topic", "[warning] SLA_MISSED gold", "{\"kind\":\"SLA_MISSED\",\"message\":\"late\"}");
            first.receive("arn:topic", "[error] RUN_FAILED silver", "not json");
        }
        Files.writeString(
                file, "{\"topicArn\":\"arn:topic\",\"subj", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        List<AlertSink.ReceivedAlert> printed = new ArrayList<>();
        try (AlertSink second = AlertSink.persistent(clock, printed::add, file)) {
            assertThat(second.all())
                    .extracting(AlertSink.ReceivedAlert::subject)
                    .containsExactly("[warning] SLA_MISSED gold", "[error] RUN_FAILED silver");
            assertThat(second.all().getFirst().message().path("message").asText())
                    .isEqualTo("late");
            assertThat(second.all().get(1).message().asText()).isEqualTo("not json");
            second.receive("arn:topic", "[info] DRIFT_DETECTED gold", "{}");
            assertThat(printed)
                    .extracting(AlertSink.ReceivedAlert::subject)
                    .containsExactly("[info] DRIFT_DETECTED gold");
        }
        assertThat(Files.readAllLines(file)).hasSize(3);
    }

    @Test
    void thePersistedFileKeepsOnlyTheNewestAlerts(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("alerts.jsonl");
        try (AlertSink sink = AlertSink.persistent(clock, a -> {}, file)) {
            for (int i = 0; i < AlertSink.CAPACITY + 5; i++) {
                sink.receive("arn:topic", "alert " + i, "{}");
            }
        }
        try (AlertSink reopened = AlertSink.persistent(clock, a -> {}, file)) {
            assertThat(reopened.all()).hasSize(AlertSink.CAPACITY);
            assertThat(reopened.all().getFirst().subject()).isEqualTo("alert 5");
        }
        assertThat(Files.readAllLines(file)).hasSize(AlertSink.CAPACITY);
    }
}
