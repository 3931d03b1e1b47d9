package io.swale.cli;

import io.swale.graph.Partition;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code swale start GRAPH PARTITION…}: start runs; the service answers with the partitions it started. */
@Command(name = "start", description = "Start runs of a graph; partitions that already had a run are skipped.")
final class StartCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Remote remote;

    @Option(names = "--idempotency-key", description = "request id; a retry with the same id is applied once")
    String key;

    @Option(names = "--wait", description = "accepted for compatibility: the service always answers with the outcome")
    boolean waitFlag;

    @Parameters(index = "0", paramLabel = "GRAPH")
    String graph;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "PARTITION")
    List<String> partitions;

    @Override
    public Integer call() {
        ObjectNode body = io.swale.record.RecordCodec.JSON.createObjectNode();
        ArrayNode list = body.putArray("partitions");
        for (String p : partitions) {
            if (!Partition.isValid(p)) {
                throw new ParameterException(spec.commandLine(), "invalid partition key `" + p
                        + "`: 1 to 16 characters of [A-Za-z0-9_]");
            }
            list.add(p);
        }
        Remote.Answer a = remote.postJson("/api/v1/graphs/" + graph + "/runs", body.toString(), key);
        if (!a.ok()) {
            spec.commandLine().getErr().println("error: " + a.detail());
            return SwaleCli.FAILED;
        }
        var started = a.body().get("started");
        String id = a.body().path("requestId").asString("");
        if (started.isEmpty()) {
            spec.commandLine().getOut().println("request " + id + ": every partition already had a run");
        } else {
            StringBuilder s = new StringBuilder();
            started.forEach(p -> s.append(s.isEmpty() ? "" : " ").append(p.asString()));
            spec.commandLine().getOut().println("request " + id + ": started " + s);
        }
        return SwaleCli.OK;
    }
}
