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

    @Override
    public Integer call() {
        new Registration(api.client(), System.out, System.err).run(documents.paths, dryRun);
        return 0;
    }
}
