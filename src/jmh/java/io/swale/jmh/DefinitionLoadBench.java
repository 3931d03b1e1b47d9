package io.swale.jmh;

import io.swale.definition.CronCheck;
import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.DefinitionLoader;
import io.swale.operator.OperatorRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Parse, check and hash a TOML definition: a chain of asset nodes, each consuming the one before. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DefinitionLoadBench {
    @Param({"10", "1000"})
    public int nodes;

    private DefinitionLoader loader;
    private String text;

    @Setup
    public void setUp() {
        loader = new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS);
        StringBuilder s = new StringBuilder("[graph]\nname = \"g\"\nschedule = \"0 3 * * *\"\npartition = \"daily\"\n");
        for (int i = 0; i < nodes; i++) {
            s.append("[[node]]\nname = \"n").append(i).append("\"\nproduces = \"a").append(i)
                    .append("\"\noperator = \"shell\"\n");
            if (i > 0) {
                s.append("consumes = [\"a").append(i - 1).append("\"]\n");
            }
            s.append("[node.params]\ncommand = \"echo {{ partition }}");
            if (i > 0) {
                s.append(" {{ upstream.n").append(i - 1).append(".rows }}");
            }
            s.append("\"\n");
        }
        text = s.toString();
        loader.load(text, DefinitionFormat.TOML);
    }

    @Benchmark
    public Definition load() {
        return loader.load(text, DefinitionFormat.TOML);
    }
}
