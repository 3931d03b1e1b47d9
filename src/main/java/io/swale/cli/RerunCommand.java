package io.swale.cli;

import io.swale.graph.Partition;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code swale rerun GRAPH PARTITION NODE}: rerun one node; a refusal exits 1 with its reason. */
@Command(name = "rerun", description = "Rerun a node of a run.")
final class RerunCommand implements Callable<Integer> {
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

    @Parameters(index = "1", paramLabel = "PARTITION")
    String partition;

    @Parameters(index = "2", paramLabel = "NODE")
    String node;

    @Override
    public Integer call() {
        if (!Partition.isValid(partition)) {
            throw new ParameterException(spec.commandLine(), "invalid partition key `" + partition + "`");
        }
        Remote.Answer a = remote.postJson("/api/v1/graphs/" + graph + "/runs/" + partition + "/nodes/" + node + "/rerun",
                "", key);
        if (!a.ok()) {
            spec.commandLine().getErr().println("refused: " + a.detail());
            return SwaleCli.FAILED;
        }
        spec.commandLine().getOut().println("request " + a.body().path("requestId").asString("") + ": submitted "
                + a.body().get("runId").asString());
        return SwaleCli.OK;
    }
}
