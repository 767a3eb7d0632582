package dev.interlock.local.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code interlock validate -f <file|dir>}: what {@code apply} would say, without registering anything. */
@Command(
        name = "validate",
        description = "Validate pipeline, archetype and calendar files through the API without registering them.")
final class ValidateCommand implements Callable<Integer> {

    @Mixin
    ApiOptions api;

    @Option(
            names = {"-f", "--file"},
            required = true,
            paramLabel = "<file|dir>",
            description = "A file or a directory (searched recursively for .yaml, .yml, .json); repeatable.")
    List<Path> paths;

    @Override
    public Integer call() {
        new Registration(api.client(), System.out, System.err).run(paths, true);
        return 0;
    }
}
