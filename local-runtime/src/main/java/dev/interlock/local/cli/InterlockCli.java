package dev.interlock.local.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code interlock} command line: runs the local system and talks to a running instance. */
@Command(name = "interlock", mixinStandardHelpOptions = true, version = "interlock 0.1.0-SNAPSHOT",
        description = "Readiness gate for data pipelines: run it locally, register pipelines, follow runs.",
        subcommands = {UpCommand.class, ApplyCommand.class, QueryCommands.Pipelines.class, QueryCommands.Runs.class,
                QueryCommands.Evaluate.class, QueryCommands.Rerun.class, QueryCommands.Alerts.class,
                StatusCommands.Status.class, StatusCommands.Why.class, UiCommand.class})
public final class InterlockCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new InterlockCli()).execute(args));
    }
}
