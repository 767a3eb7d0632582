package dev.interlock.local.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FakeJobTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theSameKeysReadFromEveryShapeOfJobArguments() throws Exception {
        FakeJob expected = new FakeJob(Duration.ofMillis(90_500), FakeJob.Outcome.FAILED);

        assertThat(FakeJob.fromMap(
                        Map.of("--date", "2026-03-01", "--fake-duration-seconds", "90.5", "--fake-outcome", "failed")))
                .isEqualTo(expected);
        assertThat(FakeJob.fromArgs(
                        List.of("--date", "2026-03-01", "--fake-duration-seconds", "90.5", "--fake-outcome", "FAILED")))
                .isEqualTo(expected);
        assertThat(FakeJob.fromArgs(List.of("--fake-duration-seconds=90.5", "--fake-outcome=FAILED")))
                .isEqualTo(expected);
        assertThat(FakeJob.fromJson(JSON.readTree("{\"--fake-duration-seconds\":90.5,\"--fake-outcome\":\"FAILED\"}")))
                .isEqualTo(expected);
    }

    @Test
    void withoutFakeArgumentsAJobTakesThirtySecondsAndSucceeds() throws Exception {
        assertThat(FakeJob.fromMap(Map.of("--date", "2026-03-01"))).isEqualTo(FakeJob.DEFAULT);
        assertThat(FakeJob.fromArgs(List.of())).isEqualTo(FakeJob.DEFAULT);
        assertThat(FakeJob.fromJson(JSON.readTree("[1,2]"))).isEqualTo(FakeJob.DEFAULT);
        assertThat(FakeJob.DEFAULT).isEqualTo(new FakeJob(Duration.ofSeconds(30), FakeJob.Outcome.SUCCEEDED));
    }

    @Test
    void badValuesAreRefusedNamingTheKeyAndTheValue() {
        assertThatThrownBy(() -> FakeJob.fromMap(Map.of("--fake-duration-seconds", "-1")))
                .hasMessage("--fake-duration-seconds must be a number of seconds, 0 or more; got '-1'");
        assertThatThrownBy(() -> FakeJob.fromArgs(List.of("--fake-duration-seconds")))
                .hasMessageContaining("--fake-duration-seconds");
        assertThatThrownBy(() -> FakeJob.fromMap(Map.of("--fake-duration-seconds", "99999999")))
                .hasMessageContaining("at most 604800 seconds");
        assertThatThrownBy(() -> FakeJob.fromArgs(List.of("--fake-outcome", "ok")))
                .hasMessage("--fake-outcome must be SUCCEEDED or FAILED; got 'ok'");
    }
}
