package dev.interlock.model.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.trait.PostRunVerdict;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trait.TraitVerdict;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostRunCheckedTest {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 3);

    private static Event checked(String runId, PostRunVerdict verdict, Instant at) {
        return new Event(
                EventKind.POST_RUN_CHECKED,
                "orders",
                "daily",
                DAY,
                runId,
                null,
                verdict.status(),
                verdict.message(),
                dev.interlock.model.json.InterlockJson.convert(verdict.details(), java.util.Map.class),
                at);
    }

    @Test
    void theLatestCheckedRunShowsEachCheckWithWhyItFailed() {
        PostRunVerdict failed = new PostRunVerdict(List.of(
                new TraitVerdict(
                        "rows-written", TraitStatus.FAIL, null, "sensor rows field 'rows' is 0, not gt 0", null, true),
                new TraitVerdict("audit", TraitStatus.PASS, null, null, null, false)));
        PostRunVerdict passed =
                new PostRunVerdict(List.of(new TraitVerdict("rows-written", TraitStatus.PASS, null, null, null, true)));
        ScheduleStatus.PostRun shown = PostRunChecked.latest(List.of(
                checked("run-2", failed, Instant.parse("2026-03-03T10:00:00Z")),
                checked("run-1", passed, Instant.parse("2026-03-03T09:00:00Z"))));

        assertThat(shown.runId()).isEqualTo("run-2");
        assertThat(shown.verdict()).isEqualTo(PostRunVerdict.FAILED);
        assertThat(shown.checks())
                .containsExactly(
                        new ScheduleStatus.PostRun.Check(
                                "rows-written", "FAIL", true, "sensor rows field 'rows' is 0, not gt 0"),
                        new ScheduleStatus.PostRun.Check("audit", "PASS", false, null));
    }

    @Test
    void aDayWithNoCheckedRunShowsNone() {
        assertThat(PostRunChecked.latest(List.of())).isNull();
    }
}
