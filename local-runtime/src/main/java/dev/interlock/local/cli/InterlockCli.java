package dev.interlock.local.cli;

import dev.interlock.model.runtime.InterlockVersion;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code interlock} command line: runs the local system and talks to a running instance. Every subcommand answers
 * {@code --help}; mistakes on the command line exit 2 with one line and a suggestion, expected failures exit 1 with
 * one or two readable lines ({@link CliErrors}); stack traces only with {@code --debug}.
 */
@Command(
        name = "interlock",
        mixinStandardHelpOptions = true,
        scope = ScopeType.INHERIT,
        versionProvider = InterlockCli.Version.class,
        description = "Readiness gate for data pipelines: run it locally, register pipelines, follow runs.",
        footer = {
            "",
            "Run 'interlock help <command>' or 'interlock <command> --help' for a command's options.",
            "Documentation: docs/ in the repository (troubleshooting: docs/troubleshooting.md)."
        },
        subcommands = {
            CommandLine.HelpCommand.class,
            UpCommand.class,
            ApplyCommand.class,
            ValidateCommand.class,
            QueryCommands.Pipelines.class,
            GraphCommands.Graph.class,
            GraphCommands.Delete.class,
            QueryCommands.Runs.class,
            QueryCommands.Evaluate.class,
            QueryCommands.Rerun.class,
            QueryCommands.Reruns.class,
            QueryCommands.Unlock.class,
            AlertsCommand.class,
            MuteCommands.Mute.class,
            MuteCommands.Unmute.class,
            MuteCommands.Mutes.class,
            PauseCommands.Pause.class,
            PauseCommands.Resume.class,
            PauseCommands.Pauses.class,
            ForceReadyCommand.class,
            LineageCommand.class,
            BackfillCommands.Start.class,
            BackfillCommands.Status.class,
            BackfillCommands.ListAll.class,
            BackfillCommands.Cancel.class,
            EventsCommand.class,
            MetricsCommand.class,
            DiffCommand.class,
            StatusCommands.Status.class,
            StatusCommands.Why.class,
            UiCommand.class
        })
public final class InterlockCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "Print stack traces of failures.")
    boolean debug;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The command line with the project's error handling, writing to the current {@code System.out}/{@code System.err}. */
    public static CommandLine commandLine(String... args) {
        boolean debug = Arrays.asList(args).contains("--debug");
        CommandLine cli = new CommandLine(new InterlockCli());
        cli.setOut(new PrintWriter(System.out, true));
        cli.setErr(new PrintWriter(System.err, true));
        cli.setParameterExceptionHandler(new CliErrors.BadCommandLine(args));
        cli.setExecutionExceptionHandler(new CliErrors.Failed(debug));
        flowDescriptions(cli);
        return cli;
    }

    /**
     * Descriptions are written in the source as several lines; picocli would print each as its own line, wrapped again
     * at the terminal's width (a full line, then a stub). Joined, each is one paragraph wrapped once.
     */
    private static void flowDescriptions(CommandLine command) {
        CommandLine.Model.UsageMessageSpec usage = command.getCommandSpec().usageMessage();
        if (usage.description().length > 1) {
            usage.description(String.join(" ", usage.description()));
        }
        CommandLine.Model.CommandSpec spec = command.getCommandSpec();
        for (CommandLine.Model.OptionSpec option : List.copyOf(spec.options())) {
            if (option.description().length > 1) {
                spec.remove(option);
                spec.addOption(option.toBuilder()
                        .description(String.join(" ", option.description()))
                        .build());
            }
        }
        command.getSubcommands().values().forEach(InterlockCli::flowDescriptions);
    }

    /** Runs one command line and returns its exit code (tests call this in process). */
    public static int run(String... args) {
        return commandLine(args).execute(args);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** {@code --version}: the version the build wrote ({@link InterlockVersion}), the stack's {@code InterlockVersion}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"interlock " + InterlockVersion.current()};
        }
    }
}
