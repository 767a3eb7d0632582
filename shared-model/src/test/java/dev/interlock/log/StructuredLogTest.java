package dev.interlock.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StructuredLogTest {

    private final Clock clock = Clock.fixed(Instant.parse("2026-03-01T10:00:00.123Z"), ZoneOffset.UTC);

    @Test
    void writesOneJsonObjectPerLineWithTheKnownContext() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StructuredLog log =
                new StructuredLog("orchestrator", new PrintStream(bytes, true, StandardCharsets.UTF_8), clock);
        log.info(
                LogContext.of("silver", "daily", "2026-03-01").withRun("r-1"),
                "lock acquired \"now\"",
                Map.of("owner", "exec-1"));

        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .isEqualTo("{\"timestamp\":\"2026-03-01T10:00:00.123Z\",\"level\":\"INFO\",\"logger\":\"orchestrator\","
                        + "\"message\":\"lock acquired \\\"now\\\"\",\"pipelineId\":\"silver\",\"scheduleId\":\"daily\","
                        + "\"date\":\"2026-03-01\",\"runId\":\"r-1\",\"owner\":\"exec-1\"}" + System.lineSeparator());
    }

    @Test
    void errorsCarryTheExceptionTypeAndMessage() {
        StructuredLog log = new StructuredLog("api", System.out, clock);
        String line =
                log.render(StructuredLog.Level.ERROR, LogContext.NONE, "boom", null, new IllegalStateException("bad"));
        assertThat(line)
                .contains("\"error\":\"java.lang.IllegalStateException\"", "\"errorMessage\":\"bad\"")
                .doesNotContain("pipelineId");
    }
}
