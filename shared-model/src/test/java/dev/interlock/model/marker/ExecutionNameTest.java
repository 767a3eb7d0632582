package dev.interlock.model.marker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class ExecutionNameTest {

    private static final LocalDate D = LocalDate.of(2026, 2, 23);

    @Test
    void joinsPipelineDateScheduleAndTheMarkerHash() {
        String sk = "MARKER#cascade#silver#r1";
        assertThat(ExecutionName.of("gold", D, "h07", sk)).isEqualTo("gold_2026-02-23_h07_" + ExecutionName.hash8(sk));
        assertThat(ExecutionName.hash8("abc")).isEqualTo("ba7816bf"); // SHA-256("abc") starts ba7816bf
    }

    @Test
    void replacesCharactersOutsideTheAllowedSetWithUnderscores() {
        assertThat(ExecutionName.of("silver.orders", D, "h:07 ü", "MARKER#manual#1"))
                .startsWith("silver_orders_2026-02-23_h_07__")
                .matches("[A-Za-z0-9_-]+");
        assertThat(ExecutionName.sanitise("a.b/c d#e😀f")).isEqualTo("a_b_c_d_e_f");
    }

    @Test
    void truncatesTheReadablePartButAlwaysKeepsTheHash() {
        String longId = "p".repeat(64);
        String sk = "MARKER#schedule#2026-02-23";
        String name = ExecutionName.of(longId, D, "a-very-long-schedule-name", sk);
        assertThat(name).hasSize(80).endsWith("_" + ExecutionName.hash8(sk)).startsWith("p".repeat(64) + "_2026-0");
    }

    @Test
    void differentMarkersOfTheSameDayGetDifferentNames() {
        assertThat(ExecutionName.of("gold", D, "daily", "MARKER#cascade#silver#r1"))
                .isNotEqualTo(ExecutionName.of("gold", D, "daily", "MARKER#cascade#silver#r2"));
    }
}
