package io.swale.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;

/**
 * {@code swale queues [QUEUE]}: every queue — the events and triggers topics and each pool's dispatch topic —
 * with its consumer group's lag, or the dead letters of one queue ({@code pool.<pool>}, {@code events},
 * {@code triggers}).
 */
@Command(name = "queues", mixinStandardHelpOptions = true, versionProvider = SwaleCli.Version.class,
        description = "Show every queue (events, triggers, each pool) with its group's lag, "
        + "or the dead letters of one queue.")
final class QueuesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Remote remote;

    @Option(names = "--limit", defaultValue = "20", description = "dead letters shown (default ${DEFAULT-VALUE})")
    int limit;

    @Parameters(index = "0", arity = "0..1", paramLabel = "QUEUE")
    String queue;

    @Override
    public Integer call() {
        if (limit < 1 || limit > 1000) {
            throw new ParameterException(spec.commandLine(), "--limit must be between 1 and 1000");
        }
        PrintWriter out = spec.commandLine().getOut();
        Remote.Answer a = queue == null ? remote.get("/api/v1/queues")
                : remote.get("/api/v1/dead-letters/" + Remote.segment(queue) + "?limit=" + limit);
        if (!a.ok()) {
            spec.commandLine().getErr().println("error: " + a.detail());
            // an unknown queue, however it is spelt, is a failure (exit 1), as an unknown graph or run is (spec §13)
            return SwaleCli.FAILED;
        }
        if (queue == null) {
            // PENDING, SCHEDULED and CLAIMED are a pool's task instances; the events and triggers have none. The
            // spec's six columns come first, in its order (spec §13), so that scripts reading them keep working
            Table t = new Table("QUEUE", "PENDING", "SCHEDULED", "CLAIMED", "DONE", "DEAD", "LAG", "GROUP");
            List<String> errors = new ArrayList<>();
            for (JsonNode q : a.body()) {
                t.row(q.get("queue").asString(), Table.text(q.get("pending")), Table.text(q.get("delayed")),
                        Table.text(q.get("running")), Table.text(q.get("consumed")), Table.text(q.get("deadLetters")),
                        Table.text(q.get("lag")), q.get("group").asString());
                if (q.hasNonNull("kafkaError")) {
                    errors.add(q.get("queue").asString() + ": " + q.get("kafkaError").asString());
                }
            }
            t.print(out);
            if (!errors.isEmpty()) {
                // a table whose Kafka figures are missing (`-`) is no answer a script may take for an idle system
                PrintWriter err = spec.commandLine().getErr();
                errors.forEach(e -> err.println("error: " + e));
                return SwaleCli.FAILED;
            }
            return SwaleCli.OK;
        }
        Table t = new Table("JOB", "RUN", "ATTEMPTS", "ENQUEUED");
        List<String> errors = new ArrayList<>();
        for (JsonNode l : a.body()) {
            String attempts = l.hasNonNull("attempts") ? l.get("attempts").asString() + "/"
                    + (l.hasNonNull("maxAttempts") ? l.get("maxAttempts").asString() : "-") : null;
            t.row(l.get("id").asString(), Table.text(l.get("runId")), attempts, Table.time(l.get("enqueuedAt")));
            if (l.hasNonNull("error") && !l.get("error").asString().isEmpty()) {
                errors.add(Table.errorLine(l.get("id").asString(), l.get("error").asString()));
            }
        }
        t.print(out);
        errors.forEach(out::println);
        return SwaleCli.OK;
    }
}
