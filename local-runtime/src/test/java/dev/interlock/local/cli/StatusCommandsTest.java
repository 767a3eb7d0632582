package dev.interlock.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code status} and {@code why} show each schedule's times in that schedule's own zone, with the offset. */
class StatusCommandsTest {

    /** Two schedules of one pipeline in two zones; the JSON keeps UTC instants, as the API answers. */
    private static final String STATUS = """
            {"pipelineId":"two-zones","date":"2026-03-01","zone":"Asia/Tokyo","schedules":[
              {"scheduleId":"tokyo","state":"NOT_READY","reason":"waiting","attempts":{"used":0,"max":3},
               "window":{"zone":"Asia/Tokyo","opensAt":"2026-02-28T15:00:00.000Z"},
               "nextAction":{"what":"re-evaluation","at":"2026-03-01T00:30:15.000Z"},
               "deadline":{"what":"completion","at":"2026-03-01T01:00:00.000Z","breached":false},
               "blocking":[],"warnings":[],"upstreams":[],"dryRun":[]},
              {"scheduleId":"newyork","state":"WAITING_FOR_WINDOW","reason":"the window opens later",
               "attempts":{"used":0,"max":3},
               "window":{"zone":"America/New_York","opensAt":"2026-03-01T05:00:00.000Z"},
               "deadline":{"what":"completion","at":"2026-03-01T23:00:00.000Z","breached":false},
               "blocking":[],"warnings":[],"upstreams":[],"dryRun":[]}]}""";

    private static String printed(java.util.function.Consumer<PrintStream> print) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        print.accept(new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void eachSchedulesTimesAreShownInItsOwnZoneWithTheOffset() {
        String table = printed(out -> StatusCommands.printSchedules(out, Output.parse(STATUS)));

        assertThat(table)
                .containsPattern("(?m)^tokyo +NOT_READY .* re-evaluation at 2026-03-01 09:30:15 \\+09:00 "
                        + "+completion 2026-03-01 10:00 \\+09:00 ")
                .containsPattern("(?m)^newyork +WAITING_FOR_WINDOW .* completion 2026-03-01 18:00 -05:00 ")
                .doesNotContain("T01:00")
                .doesNotContain("T23:00");
    }

    @Test
    void whySaysTheDeadlineOfEachScheduleInItsZone() {
        String why = printed(out -> StatusCommands.explain(out, Output.parse(STATUS)));

        assertThat(why)
                .contains("Next: re-evaluation at 2026-03-01 09:30:15 +09:00.")
                .contains("Deadline: completion 2026-03-01 10:00 +09:00.")
                .contains("Deadline: completion 2026-03-01 18:00 -05:00.");
    }
}
