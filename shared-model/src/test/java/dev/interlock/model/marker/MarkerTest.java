package dev.interlock.model.marker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.ItemKey;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class MarkerTest {

    private static final LocalDate D = LocalDate.of(2026, 2, 23);
    private static final Instant NOW = Instant.parse("2026-02-23T10:15:30.123Z");

    @Test
    void cascadeMarkersAreKeyedByTheUpstreamRunSoRewritingIsIdempotent() {
        Marker first = Marker.cascade("gold", "h07", D, "silver", "r1", NOW);
        Marker again = Marker.cascade("gold", "h07", D, "silver", "r1", NOW.plusSeconds(5));
        Marker nextRun = Marker.cascade("gold", "h07", D, "silver", "r2", NOW);
        assertThat(first.key()).isEqualTo(new ItemKey("PIPELINE#gold", "MARKER#cascade#silver:r1"));
        assertThat(again.key()).isEqualTo(first.key());
        assertThat(nextRun.key()).isNotEqualTo(first.key());
        assertThat(first.replay()).isFalse();
        assertThat(first.executionName()).isEqualTo(ExecutionName.of("gold", D, "h07", "MARKER#cascade#silver:r1"));
    }

    @Test
    void scheduleMarkersAreOncePerScheduleAndDate() {
        assertThat(Marker.schedule("gold", "daily", D, NOW).key().sk()).isEqualTo("MARKER#schedule#2026-02-23:daily");
        assertThat(Marker.schedule("gold", "daily", D, NOW.plusSeconds(300)).key())
                .isEqualTo(Marker.schedule("gold", "daily", D, NOW).key());
    }

    @Test
    void manualAndRerunMarkers() {
        assertThat(Marker.manual("gold", "daily", D, "req-1", NOW).key().sk()).isEqualTo("MARKER#manual#req-1");
        Marker rerun = Marker.rerun("gold", "daily", D, MarkerSource.LATE_ARRIVAL, "rr-1", "r1", NOW);
        assertThat(rerun.key().sk()).isEqualTo("MARKER#late-arrival#rr-1");
        assertThat(rerun.replay()).isTrue();
        assertThat(rerun.originRunId()).isEqualTo("r1");
    }

    @Test
    void markersOlderThanTheStaleWindowAreSkippedUnlessReplays() {
        LocalDate today = D.plusDays(3);
        assertThat(Marker.cascade("gold", "daily", D, "silver", "r1", NOW).isStale(today, 2))
                .isTrue();
        assertThat(Marker.cascade("gold", "daily", D.plusDays(1), "silver", "r1", NOW)
                        .isStale(today, 2))
                .isFalse();
        assertThat(Marker.rerun("gold", "daily", D, MarkerSource.RERUN, "rr", null, NOW)
                        .isStale(today, 2))
                .isFalse();
    }

    @Test
    void aContinuationOfAValidationWaitIsNeverStale() {
        LocalDate today = D.plusDays(3);
        assertThat(Marker.handOver("gold", "daily", D, MarkerSource.CONTINUATION, "gold_exec", false, NOW)
                        .isStale(today, 0))
                .isFalse();
        assertThat(Marker.handOver("gold", "daily", D, MarkerSource.DEFERRED, "gold_exec", false, NOW)
                        .isStale(today, 2))
                .isTrue();
    }

    @Test
    void roundTripsWithTheSourceAsItsWireName() {
        Marker marker = Marker.rerun("gold", "daily", D, MarkerSource.LATE_ARRIVAL, "rr-1", "r1", NOW);
        String json = InterlockJson.write(marker);
        assertThat(json)
                .contains("\"source\":\"late-arrival\"")
                .contains("\"replay\":true")
                .contains("\"date\":\"2026-02-23\"")
                .doesNotContain("\"key\"")
                .doesNotContain("executionName");
        assertThat(InterlockJson.read(json, Marker.class)).isEqualTo(marker);
    }
}
