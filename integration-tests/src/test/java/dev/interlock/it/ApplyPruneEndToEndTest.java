package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GitOps through the CLI against the real runtime: a repository of pipeline files is the truth.
 * {@code diff --prune --exit-code} tells CI whether the system drifted from it, {@code apply --prune} makes the system
 * hold exactly the files' pipelines (downstreams deleted before their upstreams, as the API refuses the other order),
 * and a file that still waits for a pipeline prune would delete stops everything before anything is written. In its
 * own class: pruning deletes every pipeline the files do not name, so no other test's pipelines may share the runtime.
 */
class ApplyPruneEndToEndTest extends EndToEnd {

    private String pipeline(String name, String upstream) {
        return """
                name: %1$s
                archetype: batch-ingestion
                traits:
                  upstream-dependency: %3$s
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                """.formatted(
                name,
                jobs.endpoint(),
                upstream == null
                        ? "{evaluator: \"builtin:always-pass\"}"
                        : "{evaluator: \"builtin:upstream-run-log\", config: {upstreamPipeline: " + upstream + "}}");
    }

    private List<String> registered() {
        List<String> names = new ArrayList<>();
        for (JsonNode p : expect(200, "GET", "/pipelines?limit=100", null, null).path("items")) {
            names.add(p.path("name").asText());
        }
        return names;
    }

    @Test
    void applyPruneMakesTheSystemHoldExactlyTheFilesPipelinesAndDiffTellsCiWhenItDrifted(@TempDir Path repo)
            throws Exception {
        // Registered by hand over time: an upstream, its downstream, and the one pipeline the repository keeps.
        putPipeline(pipeline("pr-feed", null));
        putPipeline(pipeline("pr-report", "pr-feed"));
        putPipeline(pipeline("pr-keep", null));
        Files.writeString(repo.resolve("keep.yaml"), pipeline("pr-keep", null));
        Files.writeString(repo.resolve("new.yaml"), pipeline("pr-new", "pr-keep"));

        Cli drift = runCli("diff", "--prune", "--exit-code", "-f", repo.toString());
        assertThat(drift.code()).as(drift.out() + drift.err()).isEqualTo(2);
        assertThat(drift.out())
                .containsPattern("(?m)^pipeline +pr-keep +unchanged ")
                .containsPattern("(?m)^pipeline +pr-new +new ")
                .containsPattern("(?m)^pipeline +pr-report +deleted ")
                .containsPattern("(?m)^pipeline +pr-feed +deleted ")
                .contains("1 new, 0 changed, 1 unchanged, 2 deleted; nothing was registered");
        Cli plainDiff = runCli("diff", "-f", repo.toString());
        assertThat(plainDiff.code())
                .as("without --exit-code a valid diff is a success")
                .isZero();
        assertThat(plainDiff.out()).doesNotContain("deleted");

        Cli dryRun = runCli("apply", "--prune", "--dry-run", "-f", repo.toString());
        assertThat(dryRun.code()).as(dryRun.err()).isZero();
        assertThat(dryRun.out())
                .contains("pipeline pr-report would be deleted", "pipeline pr-feed would be deleted")
                .contains("nothing was registered (dry run)");
        assertThat(registered()).containsExactlyInAnyOrder("pr-feed", "pr-report", "pr-keep");

        // A file that still waits for a pipeline prune would delete: refused at its line, nothing written.
        Path stale = repo.resolve("stale.yaml");
        Files.writeString(stale, pipeline("pr-stale", "pr-feed"));
        Cli refused = runCli("apply", "--prune", "-f", repo.toString());
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err())
                .contains(
                        "stale.yaml:4: ",
                        "pipeline pr-stale waits for pr-feed, which is registered but in no file",
                        "nothing was registered or deleted");
        assertThat(registered()).containsExactlyInAnyOrder("pr-feed", "pr-report", "pr-keep");
        Files.delete(stale);

        Cli applied = runCli("apply", "--prune", "-f", repo.toString());
        assertThat(applied.code()).as(applied.out() + applied.err()).isZero();
        String out = applied.out();
        assertThat(out).contains("pipeline pr-new created", "pipeline pr-report deleted", "pipeline pr-feed deleted");
        assertThat(out.indexOf("pipeline pr-report deleted"))
                .as("the downstream goes first: the API refuses to delete a pipeline others wait for")
                .isLessThan(out.indexOf("pipeline pr-feed deleted"));
        assertThat(registered()).containsExactlyInAnyOrder("pr-keep", "pr-new");

        Cli inSync = runCli("diff", "--prune", "--exit-code", "-f", repo.toString());
        assertThat(inSync.code()).as(inSync.out() + inSync.err()).isZero();
        assertThat(inSync.out()).contains("0 new, 0 changed, 2 unchanged, 0 deleted");
    }
}
