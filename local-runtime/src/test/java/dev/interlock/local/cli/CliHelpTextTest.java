package dev.interlock.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * How {@code interlock <command> --help} reads at a terminal's 80 columns: a command's description (and an option's)
 * is written in the source as several lines, but printed as one paragraph wrapped at the width, not as source lines
 * each wrapped again (a long line and then a stub of two words).
 */
class CliHelpTextTest {

    private static final int WIDTH = 80;

    @Test
    void everyDescriptionIsOneParagraphWrappedAtTheTerminalWidth() {
        CommandLine cli = InterlockCli.commandLine();
        List<String> ragged = new ArrayList<>();
        for (CommandLine command : cli.getSubcommands().values()) {
            command.setUsageHelpWidth(WIDTH);
            String name = command.getCommandName();
            String[] description = command.getCommandSpec().usageMessage().description();
            if (description.length > 1) {
                ragged.add(name + ": description of " + description.length + " lines");
            }
            command.getCommandSpec().options().stream()
                    .filter(option -> option.description().length > 1)
                    .forEach(option -> ragged.add(
                            name + " " + option.longestName() + ": " + option.description().length + " lines"));
            List<String> lines = descriptionLines(command.getUsageMessage());
            for (int i = 0; i < lines.size() - 1; i++) {
                // A wrapped paragraph fills its lines; only its last line may be short.
                if (lines.get(i).length() < WIDTH / 2) {
                    ragged.add(name + ": short line in the middle of the description: '" + lines.get(i) + "'");
                }
            }
        }
        assertThat(ragged).isEmpty();
    }

    /** The lines between the usage synopsis and the first option or parameter. */
    private static List<String> descriptionLines(String usage) {
        List<String> lines = Arrays.asList(usage.split("\\R"));
        List<String> description = new ArrayList<>();
        boolean synopsisDone = false;
        for (String line : lines) {
            if (!synopsisDone) {
                synopsisDone = !line.startsWith("Usage:") && !line.startsWith(" ");
                if (!synopsisDone) {
                    continue;
                }
            }
            if (line.startsWith(" ") || line.isBlank()) {
                break;
            }
            description.add(line);
        }
        return description;
    }
}
