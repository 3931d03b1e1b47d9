package io.swale.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code swale rerun GRAPH PARTITION NODE [--wait [--timeout D]]}: rerun one node; a refusal exits 1 with its
 * reason. With {@code --wait} the command then waits for the run to settle again and exits by the outcome.
 */
@Command(name = "rerun", mixinStandardHelpOptions = true, versionProvider = SwaleCli.Version.class,
        description = "Rerun a node of a run. With --wait, wait for the run to settle again.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {WaitOptions.EXIT_OK, WaitOptions.EXIT_FAILED, WaitOptions.EXIT_USAGE, WaitOptions.EXIT_CANCELLED,
                WaitOptions.EXIT_TIMED_OUT, WaitOptions.EXIT_INTERRUPTED})
final class RerunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Remote remote;

    @Mixin
    RequestOptions request;

    @Mixin
    WaitOptions waitOptions;

    @Parameters(index = "0", paramLabel = "GRAPH")
    String graph;

    @Parameters(index = "1", paramLabel = "PARTITION")
    String partition;

    @Parameters(index = "2", paramLabel = "NODE", description = "a node, or one item of a mapped node: node[3]")
    String node;

    @Override
    public Integer call() {
        RequestOptions.partition(spec, partition);
        var timeout = waitOptions.timeout(spec);
        Remote.Answer a = remote.postJson("/api/v1/graphs/" + Remote.segment(graph) + "/runs/" + Remote.segment(partition)
                + "/nodes/" + Remote.segment(node) + "/rerun",
                "", request.key());
        if (RequestOptions.refused(spec, a, "refused: ")) {
            return SwaleCli.FAILED;
        }
        spec.commandLine().getOut().println("request " + RequestOptions.requestId(a) + ": submitted "
                + a.body().get("runId").asString());
        spec.commandLine().getOut().flush();
        // the rerun made the run active before it answered, so the first poll cannot see the old outcome
        return waitOptions.waiting() ? waitOptions.await(spec, remote, graph, List.of(partition), timeout) : SwaleCli.OK;
    }
}
