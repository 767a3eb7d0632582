package dev.interlock.model.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.marker.MarkerSource;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class TableKeysTest {

    private static final LocalDate D = LocalDate.of(2026, 2, 23);

    @Test
    void everyEntityIsKeyedExactlyAsSpecSection3() {
        assertThat(TableKeys.pipeline("gold")).isEqualTo(new ItemKey("PIPELINE#gold", "CONFIG"));
        assertThat(TableKeys.pipelineIndex("gold")).isEqualTo(new IndexKey("TYPE#pipeline", "gold"));
        assertThat(TableKeys.downstream("silver", "gold")).isEqualTo(new ItemKey("PIPELINE#silver", "DOWNSTREAM#gold"));
        assertThat(TableKeys.archetype("batch-ingestion"))
                .isEqualTo(new ItemKey("ARCHETYPE#batch-ingestion", "CONFIG"));
        assertThat(TableKeys.archetypeIndex("batch-ingestion"))
                .isEqualTo(new IndexKey("TYPE#archetype", "batch-ingestion"));
        assertThat(TableKeys.calendar("holidays")).isEqualTo(new ItemKey("CALENDAR#holidays", "CONFIG"));
        assertThat(TableKeys.calendarIndex("holidays")).isEqualTo(new IndexKey("TYPE#calendar", "holidays"));
        assertThat(TableKeys.traitResult("gold", D, "h07", "source-freshness"))
                .isEqualTo(new ItemKey("PIPELINE#gold", "TRAIT#2026-02-23#h07#source-freshness"));
        assertThat(TableKeys.sensor("orders")).isEqualTo(new ItemKey("SENSOR#orders", "STATE"));
        assertThat(TableKeys.runState("r1")).isEqualTo(new ItemKey("RUN#r1", "STATE"));
        assertThat(TableKeys.runStateIndex("gold", Instant.parse("2026-02-23T10:15:30Z"), "r1"))
                .isEqualTo(new IndexKey("RUNS#gold", "2026-02-23T10:15:30.000Z#r1"));
        assertThat(TableKeys.runLog("gold", D, "daily"))
                .isEqualTo(new ItemKey("PIPELINE#gold", "RUNLOG#2026-02-23#daily"));
        assertThat(TableKeys.runLogIndex("gold", D, "daily"))
                .isEqualTo(new IndexKey("RUNLOGS#2026-02-23", "gold#daily"));
        assertThat(TableKeys.event("gold", 1_771_841_730_123L, "a1b2c3d4"))
                .isEqualTo(new ItemKey("PIPELINE#gold", "EVENT#1771841730123#a1b2c3d4"));
        assertThat(TableKeys.lock(new LockKey("gold", "h07", LocalDate.of(2026, 3, 1))))
                .isEqualTo(new ItemKey("LOCK#eval:gold:h07:2026-03-01", "LOCK"));
        assertThat(TableKeys.marker("gold", MarkerSource.CASCADE.wireName(), "silver#r1"))
                .isEqualTo(new ItemKey("PIPELINE#gold", "MARKER#cascade#silver#r1"));
        assertThat(TableKeys.lateArrival("gold", D, "daily", 1_771_841_730_123L))
                .isEqualTo(new ItemKey("PIPELINE#gold", "LATEARRIVAL#2026-02-23#daily#1771841730123"));
        assertThat(TableKeys.rerun("rr1")).isEqualTo(new ItemKey("RERUN#rr1", "STATE"));
        assertThat(TableKeys.rerunIndex(Instant.parse("2026-02-23T10:15:30.5Z")))
                .isEqualTo(new IndexKey("TYPE#rerun", "2026-02-23T10:15:30.500Z"));
        assertThat(TableKeys.alertDedup(AlertKind.SLA_MISSED, "gold", D, "daily"))
                .isEqualTo(new ItemKey("ALERT#SLA_MISSED#gold#2026-02-23#daily", "SENT"));
    }

    @Test
    void idempotentMarkerSuffixesAndRerunCopiesAreKeyedOnce() {
        assertThat(TableKeys.marker(
                        "gold", MarkerSource.CASCADE.wireName(), TableKeys.cascadeMarkerSuffix("silver", "r1")))
                .isEqualTo(new ItemKey("PIPELINE#gold", "MARKER#cascade#silver#r1"));
        assertThat(TableKeys.marker("gold", MarkerSource.SCHEDULE.wireName(), TableKeys.scheduleMarkerSuffix(D, "h07")))
                .isEqualTo(new ItemKey("PIPELINE#gold", "MARKER#schedule#2026-02-23#h07"));
        assertThat(TableKeys.rerunOfPipeline("gold", D, "daily", "rr1"))
                .isEqualTo(new ItemKey("PIPELINE#gold", "RERUN#2026-02-23#daily#rr1"));
        assertThat(TableKeys.rerunOfPipeline("gold", D, "daily", "rr1").sk())
                .startsWith(TableKeys.rerunPrefix(D, "daily"));
        assertThatThrownBy(() -> TableKeys.cascadeMarkerSuffix("silver", "r#1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void epochMillisArePaddedTo13DigitsSoSortKeysSortByTime() {
        assertThat(TableKeys.event("p", 42, "x").sk()).isEqualTo("EVENT#0000000000042#x");
        assertThat(TableKeys.lateArrival("p", D, "daily", 7).sk())
                .isEqualTo("LATEARRIVAL#2026-02-23#daily#0000000000007");
        assertThat(TableKeys.event("p", 999, "x").sk())
                .isLessThan(TableKeys.event("p", 1000, "x").sk());
        assertThatThrownBy(() -> TableKeys.event("p", -1, "x")).hasMessageContaining("epochMillis");
    }

    @Test
    void keyPartsContainingTheSeparatorOrBlankAreRejected() {
        assertThatThrownBy(() -> TableKeys.pipeline("a#b")).hasMessage("pipelineId must not contain '#': a#b");
        assertThatThrownBy(() -> new LockKey("p", " ", LocalDate.of(2026, 3, 1)))
                .hasMessage("scheduleId is required for a table key");
        assertThatThrownBy(() -> TableKeys.marker("p", MarkerSource.MANUAL.wireName(), ""))
                .hasMessage("suffix is required for a table key");
    }

    @Test
    void readsThePipelineAndMarkerSourceBackFromKeys() {
        assertThat(TableKeys.pipelineIdOf("PIPELINE#gold")).isEqualTo("gold");
        assertThat(TableKeys.pipelineIdOf("RUN#x")).isNull();
        assertThat(TableKeys.pipelineIdOf("PIPELINE#")).isNull();
        assertThat(TableKeys.markerSourceOf("MARKER#cascade#silver#1")).isEqualTo("cascade");
        assertThat(TableKeys.markerSourceOf("MARKER#manual")).isEqualTo("manual");
        assertThat(TableKeys.markerSourceOf("MARKER#")).isNull();
        assertThat(TableKeys.markerSourceOf("CONFIG")).isNull();
        assertThat(new LockKey("gold", "h07", LocalDate.of(2026, 3, 1)).value()).isEqualTo("eval:gold:h07:2026-03-01");
    }
}
