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
 * {@code swale queues [QUEUE]}: every pool's dispatch queue, or the dead letters of one queue
 * ({@code pool.<pool>}, {@code events}, {@code triggers}).
 */
@Command(name = "queues", description = "Show the pools' queues, or the dead letters of one queue.")
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
        Remote.Answer a = queue == null ? remote.get("/api/v1/pools")
                : remote.get("/api/v1/dead-letters/" + queue + "?limit=" + limit);
        if (!a.ok()) {
            spec.commandLine().getErr().println("error: " + a.detail());
            return a.status() == 400 ? SwaleCli.USAGE : SwaleCli.FAILED;
        }
        if (queue == null) {
            Table t = new Table("QUEUE", "PENDING", "SCHEDULED", "CLAIMED", "DONE", "DEAD");
            for (JsonNode p : a.body()) {
                t.row("pool." + p.get("name").asString(), p.get("pending").asString(), p.get("delayed").asString(),
                        p.get("running").asString(), Table.text(p.get("consumed")), Table.text(p.get("deadLetters")));
            }
            t.print(out);
            return SwaleCli.OK;
        }
        Table t = new Table("JOB", "RUN", "ATTEMPTS", "ENQUEUED");
        List<String> errors = new ArrayList<>();
        for (JsonNode l : a.body()) {
            String attempts = l.hasNonNull("attempts") ? l.get("attempts").asString() + "/"
                    + (l.hasNonNull("maxAttempts") ? l.get("maxAttempts").asString() : "-") : null;
            t.row(l.get("id").asString(), Table.text(l.get("runId")), attempts, Table.time(l.get("enqueuedAt")));
            if (l.hasNonNull("error") && !l.get("error").asString().isEmpty()) {
                errors.add(l.get("id").asString() + ": " + l.get("error").asString());
            }
        }
        t.print(out);
        errors.forEach(out::println);
        return SwaleCli.OK;
    }
}
