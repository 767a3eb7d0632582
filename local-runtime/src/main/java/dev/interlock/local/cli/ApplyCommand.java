package dev.interlock.local.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code interlock apply -f <file|dir>}: validates every pipeline, archetype and calendar document found (YAML with
 * several documents, or JSON) through the API, then registers them all, or none when one is invalid.
 */
@Command(
        name = "apply",
        description = {
            "Register pipelines, archetypes and calendars from YAML or JSON files or directories.",
            "Every document is validated first; when one is invalid, nothing is registered."
        })
final class ApplyCommand implements Callable<Integer> {

    @Mixin
    ApiOptions api;

    @Mixin
    DocumentPaths documents;

    @Option(
            names = "--dry-run",
            description = "Only validate through the API; register nothing (same as 'interlock validate').")
    boolean dryRun;

    @Option(
            names = "--prune",
            description = {
                "Then delete every registered pipeline no file defines (downstreams first; history stays readable),",
                "so the system holds exactly the files' pipelines (GitOps). Refused, before anything is written, when"
                        + " a file's pipeline waits for one it would delete. With --dry-run, lists what it would"
                        + " delete. Archetypes and calendars are never pruned."
            })
    boolean prune;

    @Override
    public Integer call() {
        new Registration(api.client(), System.out, System.err).run(documents.paths, dryRun, prune);
        return 0;
    }
}
