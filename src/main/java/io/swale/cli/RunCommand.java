package io.swale.cli;

import io.swale.config.ConfiguredPools;
import io.swale.definition.Definition;
import io.swale.graph.Partition;
import io.swale.graph.Partitioning;
import io.swale.definition.DefinitionFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code swale run FILE [--partition P]}: one graph run on embedded Kafka and Redis in this process, printing
 * each node's record as it lands; exit 0 when the run completes, 1 when it fails, 130 when Ctrl-C cancelled it.
 */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = SwaleCli.Version.class,
        description = "Run a graph once on embedded Kafka and Redis, printing each node's record. "
        + "Ctrl-C cancels the run (its running attempts are stopped) and exits 130; a second Ctrl-C exits at once.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the run completed", "1:the run failed, or the definition is invalid", "2:bad arguments",
                "130:interrupted (Ctrl-C): the run was cancelled", "143:terminated (SIGTERM): the run was cancelled"})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE")
    Path file;

    @Option(names = "--partition", description = "partition key; required for a daily or hourly graph")
    String partition;

    @Option(names = "--concurrency", defaultValue = "4", description = "slots of each pool (default ${DEFAULT-VALUE})")
    int concurrency;

    @Override
    public Integer call() throws IOException {
        if (concurrency < 1) {
            throw new ParameterException(spec.commandLine(), "--concurrency must be at least 1");
        }
        if (partition != null && !Partition.isValid(partition)) {
            throw new ParameterException(spec.commandLine(), "invalid partition key `" + partition
                    + "`: 1 to 16 characters of [A-Za-z0-9_]");
        }
        Optional<Definition> d = ValidateCommand.load(file, spec.commandLine().getErr());
        if (d.isEmpty()) {
            return SwaleCli.FAILED;
        }
        // the run creates a pool per name, and a pool's name is narrower than what a definition may write (spec §9):
        // said before the embedded servers start, where a downstream node's submission retried it without end
        List<String> unnamable = d.get().graph().nodes().stream()
                .filter(n -> !ConfiguredPools.isPoolName(n.pool()))
                .map(n -> "node `" + n.name() + "`: pool `" + n.pool() + "`").toList();
        if (!unnamable.isEmpty()) {
            unnamable.forEach(u -> spec.commandLine().getErr().println("error: " + u
                    + " cannot be created for the run: a pool name matches [a-z0-9_]+"));
            return SwaleCli.FAILED;
        }
        Partition p;
        if (partition != null) {
            p = Partition.of(partition);
        } else if (d.get().graph().partitioning() == Partitioning.NONE) {
            p = Partition.NONE;
        } else {
            spec.commandLine().getErr().println("error: graph `" + d.get().graph().name() + "` is "
                    + d.get().graph().partitioning().configName() + ": give the partition with --partition");
            return SwaleCli.FAILED;
        }
        // the text checked above, not a second read: a pipe (`<(…)`, /dev/stdin) is empty the second time
        return new LocalRun(spec.commandLine().getOut(), spec.commandLine().getErr(), concurrency).run(
                d.get().text().getBytes(StandardCharsets.UTF_8), DefinitionFormat.fromFileName(file.toString()), p);
    }
}
