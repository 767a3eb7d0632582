package dev.interlock.local.cli;

import dev.interlock.model.validation.ClosestName;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * How the CLI reports what went wrong: a wrong command line in one line with the most likely intended word and exit
 * code 2; a failed command in one or two lines and exit code 1; never a stack trace unless {@code --debug}.
 */
final class CliErrors {

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");

    private CliErrors() {}

    /** Mistakes on the command line: unknown command or option, missing or malformed values. */
    static final class BadCommandLine implements CommandLine.IParameterExceptionHandler {
        private final String[] args;

        BadCommandLine(String[] args) {
            this.args = args.clone();
        }

        @Override
        public int handleParseException(ParameterException ex, String[] ignored) {
            CommandLine cmd = ex.getCommandLine();
            PrintWriter err = cmd.getErr();
            String name = cmd.getCommandSpec().qualifiedName();
            err.println(name + ": " + describe(ex, cmd));
            err.println("  see '" + name + " --help'");
            err.flush();
            return CliFailure.USAGE;
        }

        private String describe(ParameterException ex, CommandLine cmd) {
            CommandSpec spec = cmd.getCommandSpec();
            if (ex instanceof CommandLine.UnmatchedArgumentException unmatched
                    && !cmd.getSubcommands().isEmpty()) {
                String token = unmatched.getUnmatched().getFirst();
                if (!token.startsWith("-")) {
                    return unknownCommand(cmd, token);
                }
            }
            if (ex.getArgSpec() == null
                    && ex.getValue() != null
                    && !cmd.getSubcommands().isEmpty()
                    && !ex.getValue().startsWith("-")) {
                return unknownCommand(cmd, ex.getValue());
            }
            Optional<String> unknown = firstUnknownOption(spec, args);
            if (unknown.isPresent()) {
                return "unknown option '" + unknown.get() + "'" + hint(unknown.get(), optionNames(spec));
            }
            if (ex instanceof CommandLine.UnmatchedArgumentException unmatched) {
                return "unexpected argument '" + unmatched.getUnmatched().getFirst() + "'";
            }
            if (ex instanceof CommandLine.MissingParameterException missing) {
                List<String> names = new ArrayList<>();
                for (ArgSpec arg : missing.getMissing()) {
                    names.add(arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel());
                }
                return "missing " + String.join(", ", names);
            }
            return plain(ex.getMessage());
        }

        private static String unknownCommand(CommandLine cmd, String token) {
            return "unknown command '" + token + "'"
                    + hint(token, cmd.getSubcommands().keySet());
        }
    }

    /** Failures while a command runs. */
    static final class Failed implements CommandLine.IExecutionExceptionHandler {
        private final boolean debug;

        Failed(boolean debug) {
            this.debug = debug;
        }

        @Override
        public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
            PrintWriter err = cmd.getErr();
            if (debug) {
                ex.printStackTrace(err);
            }
            String name = cmd.getCommandSpec().qualifiedName();
            int code;
            if (ex instanceof CliFailure failure) {
                err.println(name + ": " + failure.getMessage());
                code = failure.exitCode();
            } else {
                err.println(name + ": unexpected failure: " + ex);
                if (!debug) {
                    err.println("  run it again with --debug for the stack trace");
                }
                code = CliFailure.FAILED;
            }
            err.flush();
            return code;
        }
    }

    /** The first {@code -x}/{@code --xyz} token that is not an option of {@code spec}, skipping option values. */
    static Optional<String> firstUnknownOption(CommandSpec spec, String[] args) {
        for (int i = 0; i < args.length; i++) {
            String token = args[i];
            if (token.equals("--")) {
                break;
            }
            if (!token.startsWith("-")
                    || token.length() < 2
                    || NUMBER.matcher(token).matches()) {
                continue;
            }
            String optionName = token.contains("=") ? token.substring(0, token.indexOf('=')) : token;
            OptionSpec option = spec.findOption(optionName);
            if (option == null && !optionName.startsWith("--") && optionName.length() > 2) {
                // -fexamples/: a short option with its value attached.
                option = spec.findOption(optionName.substring(0, 2));
                if (option != null) {
                    continue;
                }
            }
            if (option == null) {
                return Optional.of(optionName);
            }
            if (!token.contains("=") && option.arity().min() > 0) {
                i++;
            }
        }
        return Optional.empty();
    }

    private static List<String> optionNames(CommandSpec spec) {
        List<String> names = new ArrayList<>();
        spec.options().forEach(o -> names.addAll(List.of(o.names())));
        return names;
    }

    private static String hint(String typed, java.util.Collection<String> known) {
        return ClosestName.among(typed, known)
                .map(name -> "; did you mean '" + name + "'?")
                .orElse("");
    }

    /** picocli's first line, in the CLI's voice. */
    private static String plain(String message) {
        String first = message == null
                ? "invalid command line"
                : message.lines().findFirst().orElse(message);
        first = first.replace("is not a double", "is not a number")
                .replace("is not an int", "is not a whole number")
                .replace("Invalid value for option ", "invalid value for ");
        return first.isEmpty() ? first : first.substring(0, 1).toLowerCase(Locale.ROOT) + first.substring(1);
    }
}
