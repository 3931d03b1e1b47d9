package io.swale.cli;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line (interfaces §4): {@code java -jar swale.jar <command> …}. Exit codes: 0 success, 1 failure
 * or refusal (or a failed run), 2 bad arguments, 3 a cancelled run and 4 a timed-out wait ({@code --wait}),
 * 130 interrupted (Ctrl-C).
 */
@Command(name = "swale", mixinStandardHelpOptions = true, versionProvider = SwaleCli.Version.class,
        description = "Swale: partitioned asset graphs on Kafka and Redis.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success",
                "1:failure or refusal; a failed run (run, --wait); an answer that is not the service's JSON",
                "2:bad arguments",
                "3:a cancelled run (--wait)", "4:--timeout passed before the runs settled",
                "130:interrupted (Ctrl-C); `run` cancels its run first"},
        subcommands = {ValidateCommand.class, RunCommand.class, PublishCommand.class, StartCommand.class,
                RerunCommand.class, CancelCommand.class, StatusCommand.class, QueuesCommand.class,
                CommandLine.HelpCommand.class})
public final class SwaleCli {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int CANCELLED = 3;
    public static final int TIMED_OUT = 4;
    /** 128 + SIGINT, what a shell reports for a command stopped with Ctrl-C. */
    public static final int INTERRUPTED = 130;

    private static final Set<String> COMMANDS = Set.of("validate", "run", "publish", "start", "rerun", "cancel",
            "status", "queues", "help", "--help", "-h", "--version", "-V");

    /**
     * True when the arguments start the service: none, or only {@code --option=value} ones (interfaces §4). Any
     * other argument is the command line's, so that a mistyped command is refused (exit 2) rather than start a
     * service that never returns.
     */
    public static boolean startsTheService(String[] args) {
        return Arrays.stream(args).allMatch(a -> a.startsWith("--") && !COMMANDS.contains(a));
    }

    public static int execute(String[] args) {
        return execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    }

    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new SwaleCli());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof CommandLine.ParameterException p) {
                err.println("error: " + p.getMessage());
                return USAGE;
            }
            err.println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return FAILED;
        });
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = SwaleCli.class.getPackage().getImplementationVersion();
            return new String[] {"swale " + (v == null ? "dev" : v)};
        }
    }
}
