package io.swale.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code swale rerun GRAPH PARTITION NODE}: rerun one node; a refusal exits 1 with its reason. */
@Command(name = "rerun", description = "Rerun a node of a run.")
final class RerunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Remote remote;

    @Mixin
    RequestOptions request;

    @Parameters(index = "0", paramLabel = "GRAPH")
    String graph;

    @Parameters(index = "1", paramLabel = "PARTITION")
    String partition;

    @Parameters(index = "2", paramLabel = "NODE")
    String node;

    @Override
    public Integer call() {
        RequestOptions.partition(spec, partition);
        Remote.Answer a = remote.postJson("/api/v1/graphs/" + graph + "/runs/" + partition + "/nodes/" + node + "/rerun",
                "", request.key);
        if (RequestOptions.refused(spec, a, "refused: ")) {
            return SwaleCli.FAILED;
        }
        spec.commandLine().getOut().println("request " + RequestOptions.requestId(a) + ": submitted "
                + a.body().get("runId").asString());
        return SwaleCli.OK;
    }
}
