package io.swale.definition;

import io.swale.graph.Graph;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * Loads a definition (§1.6): parse strictly, then collect every fault, and return the checked graph
 * only when there is none.
 */
public final class DefinitionLoader {
    private final OperatorCatalog operators;
    private final CronCheck cron;
    private final DefinitionLimits limits;
    private final Optional<Predicate<String>> declaredResources;

    public DefinitionLoader(OperatorCatalog operators, CronCheck cron) {
        this(operators, cron, DefinitionLimits.DEFAULT);
    }

    public DefinitionLoader(OperatorCatalog operators, CronCheck cron, DefinitionLimits limits) {
        this(operators, cron, limits, Optional.empty());
    }

    private DefinitionLoader(OperatorCatalog operators, CronCheck cron, DefinitionLimits limits,
            Optional<Predicate<String>> declaredResources) {
        this.operators = Objects.requireNonNull(operators, "operators");
        this.cron = Objects.requireNonNull(cron, "cron");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.declaredResources = declaredResources;
    }

    /**
     * This loader in strict resource mode: a literal lease on a name that {@code declared} does not know is a fault
     * too, reported with every other (docs/resources.md), in a definition and in a growth. For publish, validate and
     * growth only: a stored definition loads whatever capacities are declared now.
     */
    public DefinitionLoader withDeclaredResources(Predicate<String> declared) {
        return new DefinitionLoader(operators, cron, limits, Optional.of(declared));
    }

    public DefinitionLimits limits() {
        return limits;
    }

    /**
     * Loads {@code text}; its hash is that of its UTF-8 bytes.
     *
     * @throws DefinitionParseException when the text is malformed or has the wrong shape
     * @throws InvalidDefinitionException when the definition has faults
     */
    public Definition load(String text, DefinitionFormat format) {
        return load(text.getBytes(StandardCharsets.UTF_8), format);
    }

    /**
     * Loads {@code bytes}, which must be UTF-8; the hash is that of these exact bytes.
     *
     * @throws DefinitionParseException when the bytes are not UTF-8, malformed or of the wrong shape
     * @throws InvalidDefinitionException when the definition has faults
     */
    public Definition load(byte[] bytes, DefinitionFormat format) {
        String text = DocumentParser.decode(bytes);
        JsonNode tree = DocumentParser.parse(text, format, limits);
        List<Fault> limitFaults = LimitChecks.check(tree, limits);
        RawDefinition raw = ShapeReader.read(tree);
        Graph graph = check(raw, limitFaults);
        return new Definition(DefinitionHash.of(bytes), text, graph);
    }

    /**
     * Loads a file, its format taken from its name.
     *
     * @throws DefinitionParseException when the file cannot be read (naming the cause), or as {@link #load(byte[], DefinitionFormat)}
     */
    public Definition load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new DefinitionParseException("cannot read definition file " + file + ": " + e, e);
        }
        return load(bytes, DefinitionFormat.fromFileName(String.valueOf(file.getFileName())));
    }

    /**
     * Checks a growth declared by node {@code by} of a run whose effective graph, without {@code by}'s own earlier
     * growth, is {@code current} (docs/dynamic-graphs.md §8.2).
     */
    public Growths.Check checkGrowth(Graph current, String by, long rerun, JsonNode grow) {
        return Growths.check(current, by, rerun, grow, operators, limits, declaredResources);
    }

    private Graph check(RawDefinition raw, List<Fault> limitFaults) {
        List<Fault> faults = new ArrayList<>(limitFaults);
        LimitChecks.nodeCount(raw, limits).ifPresent(faults::add);
        boolean withinLimits = faults.isEmpty();
        faults.addAll(LimitChecks.poolNames(raw, limits));
        faults.addAll(FileChecks.check(raw));
        faults.addAll(GraphChecks.check(raw, cron));
        List<Fault> leaseFaults = LeaseChecks.check(raw);
        faults.addAll(leaseFaults);
        declaredResources.ifPresent(
                declared -> faults.addAll(LeaseChecks.undeclared(raw.nodes(), leaseFaults, declared)));
        faults.addAll(MapChecks.check(raw));
        if (withinLimits) {
            // the params checks recurse and cost per node: only within the limits
            faults.addAll(OperatorChecks.check(raw, operators));
        }
        if (!faults.isEmpty()) {
            throw new InvalidDefinitionException(faults);
        }
        List<io.swale.graph.Node> nodes = new ArrayList<>();
        for (int i = 0; i < raw.nodes().size(); i++) {
            io.swale.graph.Node n = raw.nodes().get(i);
            nodes.add(new io.swale.graph.Node(n.name(), n.produces(), n.consumes(), n.after(), n.declaredRule(),
                    n.operator(), n.pool(), n.retries(), n.params(), MapChecks.spec(raw, i), n.leases()));
        }
        Graph graph = new Graph(raw.name(), raw.schedule(), raw.catchup().map(Durations::parse), raw.partitioning(),
                nodes);
        CycleCheck.find(graph).ifPresent(cycle -> {
            throw new InvalidDefinitionException(List.of(Fault.ofGraph(FaultKind.CYCLE, "the graph has a cycle: " + cycle)));
        });
        return graph;
    }
}
