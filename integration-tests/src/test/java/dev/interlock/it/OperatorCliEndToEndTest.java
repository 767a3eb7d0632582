package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Through the real runtime: what an operator types at 3 a.m. — {@code evaluate} and {@code runs} as
 * tables with the execution, times and ids, {@code events} of the day, {@code status --state}, and {@code diff} and
 * {@code validate --offline} on the files a GitOps repository holds.
 */
class OperatorCliEndToEndTest extends EndToEnd {

    private static final String READY = """
            name: op-ready
            archetype: batch-ingestion
            traits:
              source-freshness: {evaluator: "builtin:always-pass"}
              upstream-dependency: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:always-pass"}
            trigger: {type: http, url: "%s/jobs/op-ready"}
            """;
    private static final String HELD = """
            name: op-held
            archetype: batch-ingestion
            traits:
              source-freshness: {evaluator: "builtin:always-fail"}
              upstream-dependency: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:always-pass"}
            trigger: {type: http, url: "%s/jobs/op-held"}
            evaluationIntervalSeconds: 3600
            """;

    @Test
    void anOperatorFollowsADayFromEvaluateToRunsEventsAndTheFleetsState() {
        LocalDate day = today();
        putPipeline(READY.formatted(jobs.endpoint()));
        putPipeline(HELD.formatted(jobs.endpoint()));

        String started = printed("evaluate", "op-ready", "--date", day.toString());
        Matcher row =
                Pattern.compile("(?m)^op-ready +" + day + " +daily +(\\S+)$").matcher(started);
        assertThat(row.find()).as(started).isTrue();
        assertThat(awaitDone(row.group(1))).isEqualTo(ExecutionStatus.SUCCEEDED);
        evaluate("op-held", day);

        String runs = printed("runs", "op-ready");
        String instant = SHOWN_TIME;
        assertThat(runs)
                .containsPattern("(?m)^" + day + " +daily +COMPLETED +\\d+ +" + instant + " +\\S+$")
                .containsPattern("(?m)^\\S+ +" + day + " +daily +COMPLETED +" + instant + " +" + instant + " +-$");

        String events = printed("events", "op-ready", "--date", day.toString(), "--kind", "TRIGGER_FIRED");
        assertThat(events)
                .containsPattern("(?m)^TIME +DATE +SCHEDULE +KIND +STATUS +MESSAGE$")
                .containsPattern("(?m)^" + instant + " +" + day + " +daily +TRIGGER_FIRED ")
                .contains("1 event(s)")
                .doesNotContain("TRAIT_EVALUATED");

        await(
                "op-held NOT_READY in the fleet table filtered by state",
                () -> printed("status", "--date", day.toString(), "--state", "NOT_READY"),
                table -> table.contains("op-held") && !table.contains("op-ready"));
        assertThat(printed("status", "--date", day.toString(), "--state", "COMPLETED"))
                .containsPattern("(?m)^op-ready +" + day + " +COMPLETED ")
                .doesNotContain("op-held");
    }

    @Test
    void diffComparesTheFilesWithWhatIsRegisteredAfterTheApisNormalisation(@TempDir Path dir) throws Exception {
        putPipeline(READY.formatted(jobs.endpoint()));
        putPipeline(HELD.formatted(jobs.endpoint()));
        // op-ready exactly as registered (its defaults left out), op-held re-evaluated every 15 minutes, one new.
        Files.writeString(
                dir.resolve("pipelines.yaml"),
                READY.formatted(jobs.endpoint())
                        + "---\n"
                        + HELD.formatted(jobs.endpoint()).replace("3600", "900")
                        + "---\n"
                        + READY.formatted(jobs.endpoint()).replace("op-ready", "op-new"));

        String diff = printed("diff", "-f", dir.toString());

        assertThat(diff)
                .containsPattern("(?m)^pipeline +op-ready +unchanged ")
                .containsPattern("(?m)^pipeline +op-held +changed +\\S+ +evaluationIntervalSeconds$")
                .containsPattern("(?m)^pipeline +op-new +new ")
                .contains("1 new, 1 changed, 1 unchanged; nothing was registered");
        assertThat(call("GET", "/pipelines/op-new", null, null).status()).isEqualTo(404);

        // The same files validate with no running system at all (CI).
        Cli offline = cli("validate", "--offline", "-f", dir.toString(), "--endpoint", "http://127.0.0.1:9");
        assertThat(offline.code()).as(offline.err()).isZero();
        assertThat(offline.out()).contains("3 document(s) valid (checked offline");
    }
}
