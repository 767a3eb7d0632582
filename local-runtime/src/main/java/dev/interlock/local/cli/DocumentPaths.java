package dev.interlock.local.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** The documents a command reads ({@code apply}, {@code validate}, {@code diff}): {@code -f <file|dir>}, repeatable. */
final class DocumentPaths {

    @Option(
            names = {"-f", "--file"},
            required = true,
            paramLabel = "<file|dir>",
            description = "A file or a directory (searched recursively for .yaml, .yml, .json); repeatable.")
    List<Path> paths;
}
