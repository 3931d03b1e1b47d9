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

/** {@code swale cancel GRAPH PARTITION}: cancel an active run; a run that is not active exits 1. */
@Command(name = "cancel", description = "Cancel an active run.")
final class CancelCommand implements Callable<Integer> {
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

    @Override
    public Integer call() {
        if (!Partition.isValid(partition)) {
            throw new ParameterException(spec.commandLine(), "invalid partition key `" + partition + "`");
        }
        Remote.Answer a = remote.postJson("/api/v1/graphs/" + graph + "/runs/" + partition + "/cancel", "", key);
        if (!a.ok()) {
            spec.commandLine().getErr().println("refused: " + a.detail());
            return SwaleCli.FAILED;
        }
        spec.commandLine().getOut().println("request " + a.body().path("requestId").asString("") + ": cancelled "
                + graph + "/" + partition);
        return SwaleCli.OK;
    }
}
