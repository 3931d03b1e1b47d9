package io.swale.cli;

import io.swale.cron.DialectCronCheck;
import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.DefinitionLoader;
import io.swale.definition.DefinitionParseException;
import io.swale.definition.Fault;
import io.swale.definition.InvalidDefinitionException;
import io.swale.definition.ShellWarnings;
import io.swale.operator.OperatorRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code swale validate FILE}: load and check a definition offline; print name, nodes and edges. */
@Command(name = "validate", mixinStandardHelpOptions = true, versionProvider = SwaleCli.Version.class,
        description = "Check a definition file and print its graph, nodes and edges.")
final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "definition file (.toml, .yaml, .yml)")
    Path file;

    @Override
    public Integer call() {
        Optional<Definition> d = load(file, spec.commandLine().getErr());
        if (d.isEmpty()) {
            return SwaleCli.FAILED;
        }
        ShellWarnings.of(d.get().graph()).forEach(w -> spec.commandLine().getErr().println("warning: " + w));
        spec.commandLine().getOut().println(d.get().graph().name() + ": " + d.get().graph().nodes().size() + " nodes, "
                + d.get().graph().edgeCount() + " edges");
        return SwaleCli.OK;
    }

    /** Loads a file with the built-in operators; prints one line per fault (or the parse error) when it fails. */
    static Optional<Definition> load(Path file, PrintWriter err) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            err.println("error: cannot read " + file + ": " + FileErrors.why(e));
            return Optional.empty();
        }
        try {
            return Optional.of(new DefinitionLoader(OperatorRegistry.builtIn(), new DialectCronCheck())
                    .load(bytes, DefinitionFormat.fromFileName(file.toString())));
        } catch (InvalidDefinitionException e) {
            err.println("error: " + file + " is invalid:");
            for (Fault f : e.faults()) {
                err.println("  " + f.kind().wireName() + ": " + f.message());
            }
        } catch (DefinitionParseException e) {
            err.println("error: " + file + ": " + e.getMessage());
        }
        return Optional.empty();
    }
}
