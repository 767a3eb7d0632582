package dev.interlock.local.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code interlock validate -f <file|dir>}: what {@code apply} would say, without registering anything. */
@Command(
        name = "validate",
        description = {
            "Validate pipeline, archetype and calendar files without registering them: through the API of a running "
                    + "system, or with --offline without one (for CI)."
        })
final class ValidateCommand implements Callable<Integer> {

    @Mixin
    ApiOptions api;

    @Mixin
    DocumentPaths documents;

    @Option(
            names = "--offline",
            description = "Validate here, with no running system (for CI): the API's own checks; a pipeline may then "
                    + "name only bundled archetypes and the archetypes and calendars in the files given.")
    boolean offline;

    @Override
    public Integer call() {
        if (offline) {
            new OfflineValidation(System.out, System.err).run(documents.paths);
            return 0;
        }
        new Registration(api.client(), System.out, System.err).run(documents.paths, true);
        return 0;
    }
}
