package io.swale.cli;

import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;

/** {@code swale status [GRAPH [PARTITION]]}: graphs, the runs of a graph, or the nodes of a run (spec §13). */
@Command(name = "status", mixinStandardHelpOptions = true, versionProvider = SwaleCli.Version.class,
        description = "Show graphs, the runs of a graph, or the nodes of one run.")
final class StatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Remote remote;

    @Option(names = "--limit", defaultValue = "20", description = "runs of a graph: the last N (default ${DEFAULT-VALUE})")
    int limit;

    /** Runs per request, the API's most. */
    int pageSize = 10_000;

    @Parameters(index = "0", arity = "0..1", paramLabel = "GRAPH")
    String graph;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PARTITION")
    String partition;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new ParameterException(spec.commandLine(), "--limit must be at least 1");
        }
        if (partition != null) {
            RequestOptions.partition(spec, partition);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (graph != null && partition == null) {
            return lastRuns().map(runs -> {
                runs(runs, out);
                return SwaleCli.OK;
            }).orElse(SwaleCli.FAILED);
        }
        Remote.Answer a = graph == null ? remote.get("/api/v1/graphs")
                : remote.get("/api/v1/graphs/" + Remote.segment(graph) + "/runs/" + Remote.segment(partition));
        if (!a.ok()) {
            spec.commandLine().getErr().println("error: " + a.detail());
            return SwaleCli.FAILED;
        }
        if (graph == null) {
            graphs(a.body(), out);
        } else {
            run(a.body(), out);
        }
        return SwaleCli.OK;
    }

    /**
     * The graph's last {@code --limit} runs in partition order: the API lists runs from a partition on, a page at
     * a time, so the pages are read to the end; empty (the error printed) when one is refused.
     */
    private Optional<List<JsonNode>> lastRuns() {
        Deque<JsonNode> last = new ArrayDeque<>();
        Optional<String> from = Optional.empty();
        while (true) {
            Remote.Answer a = remote.get("/api/v1/graphs/" + Remote.segment(graph) + "/runs?limit=" + pageSize
                    + from.map(f -> "&from=" + Remote.segment(f)).orElse(""));
            if (!a.ok()) {
                spec.commandLine().getErr().println("error: " + a.detail());
                return Optional.empty();
            }
            Optional<String> lastOfPage = Optional.empty();
            for (JsonNode r : a.body()) {
                String p = r.get("partition").asString();
                // a page starts at its `from`, which ended the page before
                if (from.filter(p::equals).isEmpty()) {
                    last.addLast(r);
                    if (last.size() > limit) {
                        last.removeFirst();
                    }
                    lastOfPage = Optional.of(p);
                }
            }
            if (a.body().size() < pageSize || lastOfPage.isEmpty()) {
                return Optional.of(List.copyOf(last));
            }
            from = lastOfPage;
        }
    }

    private static void graphs(JsonNode graphs, PrintWriter out) {
        Table t = new Table("GRAPH", "DEFINITION", "ACTIVE", "COMPLETE", "FAILED", "CANCELLED", "LATEST");
        for (JsonNode g : graphs) {
            JsonNode runs = g.get("runs");
            JsonNode latest = g.get("latest");
            t.row(g.get("name").asString(), Table.hash(g.get("definition")), runs.get("active").asString(),
                    runs.get("complete").asString(), runs.get("failed").asString(), runs.get("cancelled").asString(),
                    latest == null || latest.isNull() ? null
                            : latest.get("partition").asString() + " " + latest.get("state").asString());
        }
        t.print(out);
    }

    private static void runs(List<JsonNode> runs, PrintWriter out) {
        Table t = new Table("PARTITION", "STATE", "REQUESTED", "DEFINITION");
        for (JsonNode r : runs) {
            t.row(r.get("partition").asString(), r.get("state").asString(), Table.time(r.get("requestedAt")),
                    Table.hash(r.get("definition")));
        }
        t.print(out);
    }

    private static void run(JsonNode run, PrintWriter out) {
        out.println(run.get("graph").asString() + "/" + run.get("partition").asString() + "  "
                + run.get("state").asString() + "  requested " + Table.time(run.get("requestedAt")) + "  definition "
                + Table.hash(run.get("definition")));
        Table t = new Table("NODE", "POOL", "STATE", "RUN", "TERMINATED");
        List<String> errors = new ArrayList<>();
        for (JsonNode n : run.get("nodes")) {
            JsonNode record = n.get("record");
            JsonNode instance = n.get("instance");
            String runId = record != null && !record.isNull() ? Table.text(record.get("runId"))
                    : instance != null && !instance.isNull() ? Table.text(instance.get("runId")) : null;
            t.row(n.get("name").asString(), n.get("pool").asString(), n.get("state").asString(), runId,
                    record == null || record.isNull() ? null : Table.time(record.get("terminatedAt")));
            if (record != null && !record.isNull() && record.hasNonNull("error")) {
                errors.add(Table.errorLine(n.get("name").asString(), record.get("error").asString()));
            }
        }
        t.print(out);
        errors.forEach(out::println);
    }
}
