package io.swale.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code swale cancel GRAPH PARTITION}: cancel an active run; a run that is not active exits 1. */
@Command(name = "cancel", mixinStandardHelpOptions = true, versionProvider = SwaleCli.Version.class,
        description = "Cancel an active run.")
final class CancelCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Remote remote;

    @Mixin
    RequestOptions request;

    /** The answer is the outcome: a cancelled run has settled. */
    @Option(names = "--wait", hidden = true, description = "accepted: a cancel settles the run at once")
    boolean waitFlag;

    @Parameters(index = "0", paramLabel = "GRAPH")
    String graph;

    @Parameters(index = "1", paramLabel = "PARTITION")
    String partition;

    @Override
    public Integer call() {
        RequestOptions.partition(spec, partition);
        Remote.Answer a = remote.postJson("/api/v1/graphs/" + Remote.segment(graph) + "/runs/" + Remote.segment(partition) + "/cancel", "", request.key());
        if (RequestOptions.refused(spec, a, "refused: ")) {
            return SwaleCli.FAILED;
        }
        spec.commandLine().getOut().println("request " + RequestOptions.requestId(a) + ": cancelled "
                + graph + "/" + partition);
        return SwaleCli.OK;
    }
}
