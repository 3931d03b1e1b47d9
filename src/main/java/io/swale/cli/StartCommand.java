package io.swale.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code swale start GRAPH PARTITION… [--wait [--timeout D]]}: start runs; the service answers with the partitions
 * it started. With {@code --wait} the command then waits for the run of every partition given (started now or
 * before) to settle and exits by the outcome.
 */
@Command(name = "start", mixinStandardHelpOptions = true, versionProvider = SwaleCli.Version.class,
        description = "Start runs of a graph; partitions that already had a run are skipped. "
        + "With --wait, wait for the run of every partition given to settle.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {WaitOptions.EXIT_OK, WaitOptions.EXIT_FAILED, WaitOptions.EXIT_USAGE, WaitOptions.EXIT_CANCELLED,
                WaitOptions.EXIT_TIMED_OUT, WaitOptions.EXIT_INTERRUPTED})
final class StartCommand implements Callable<Integer> {
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

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "PARTITION")
    List<String> partitions;

    @Override
    public Integer call() {
        var timeout = waitOptions.timeout(spec);
        ObjectNode body = io.swale.record.RecordCodec.JSON.createObjectNode();
        ArrayNode list = body.putArray("partitions");
        for (String p : partitions) {
            list.add(RequestOptions.partition(spec, p));
        }
        Remote.Answer a = remote.postJson("/api/v1/graphs/" + Remote.segment(graph) + "/runs", body.toString(), request.key());
        if (RequestOptions.refused(spec, a, "error: ")) {
            return SwaleCli.FAILED;
        }
        var started = a.body().get("started");
        String id = RequestOptions.requestId(a);
        if (started.isEmpty()) {
            spec.commandLine().getOut().println("request " + id + ": every partition already had a run");
        } else {
            StringBuilder s = new StringBuilder();
            started.forEach(p -> s.append(s.isEmpty() ? "" : " ").append(p.asString()));
            spec.commandLine().getOut().println("request " + id + ": started " + s);
        }
        spec.commandLine().getOut().flush();
        return waitOptions.waiting() ? waitOptions.await(spec, remote, graph, partitions, timeout) : SwaleCli.OK;
    }
}
