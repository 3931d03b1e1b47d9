package io.swale.cli;

import io.swale.definition.Durations;
import io.swale.definition.InvalidDurationException;
import io.swale.record.RunState;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import tools.jackson.databind.JsonNode;

/**
 * {@code --wait [--timeout D]} of start and rerun: after the request, poll each run until it settles and exit
 * by the outcome. Waiting only watches: an interrupted wait leaves the runs as they are.
 */
final class WaitOptions {
    // the exit codes of start and rerun, for their help (annotation values must be constants)
    static final String EXIT_OK = "0:the request was applied; with --wait, every run complete";
    static final String EXIT_FAILED = "1:refused or failed; with --wait, a run failed or the service refused a poll "
            + "(4xx); an answer that is not the service's JSON";
    static final String EXIT_USAGE = "2:bad arguments";
    static final String EXIT_CANCELLED = "3:with --wait, a run was cancelled";
    static final String EXIT_TIMED_OUT = "4:--timeout passed first (the runs go on)";
    static final String EXIT_INTERRUPTED = "130:interrupted (Ctrl-C); the runs go on";
    private static final long POLL_MS = 500;
    /** The longest one poll may take; less when the timeout is nearer. */
    static final Duration MAX_REQUEST = Duration.ofSeconds(60);

    @Option(names = "--wait", description = "wait until the run settles and exit by its outcome (see exit codes)")
    boolean wait;

    @Option(names = "--timeout", paramLabel = "DURATION",
            description = "with --wait: stop waiting after this long, e.g. 90s, 30m, 2h (implies --wait)")
    String timeout;

    boolean waiting() {
        return wait || timeout != null;
    }

    /** The timeout, checked before any request is sent; empty waits as long as it takes. */
    Optional<Duration> timeout(CommandSpec spec) {
        if (timeout == null) {
            return Optional.empty();
        }
        try {
            Duration d = Durations.parse(timeout);
            if (d.isZero()) {
                throw new ParameterException(spec.commandLine(), "--timeout must be longer than zero");
            }
            try {
                // the wait counts in nanoseconds: found here, not after the request was sent
                d.toNanos();
            } catch (ArithmeticException e) {
                throw new ParameterException(spec.commandLine(), "--timeout `" + timeout
                        + "` is longer than a wait can be (about 292 years)");
            }
            return Optional.of(d);
        } catch (InvalidDurationException e) {
            throw new ParameterException(spec.commandLine(), "--timeout: " + e.getMessage());
        }
    }

    /** Polls the runs of {@code partitions} until none is active or the timeout passes. */
    int await(CommandSpec spec, Remote remote, String graph, List<String> partitions, Optional<Duration> limit) {
        PrintWriter out = spec.commandLine().getOut();
        // only read when limit is present
        long deadline = limit.map(d -> System.nanoTime() + d.toNanos()).orElse(0L);
        List<String> waiting = new ArrayList<>(partitions);
        boolean failed = false;
        boolean cancelled = false;
        PrintWriter err = spec.commandLine().getErr();
        String problem = null;
        while (true) {
            for (var it = waiting.iterator(); it.hasNext(); ) {
                String partition = it.next();
                Remote.Answer a;
                try {
                    a = remote.fetch("/api/v1/graphs/" + Remote.segment(graph) + "/runs/" + Remote.segment(partition),
                            requestTimeout(limit.map(l -> Duration.ofNanos(deadline - System.nanoTime()))));
                } catch (IOException e) {
                    problem = passing(err, problem, "cannot reach the service (" + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
                    continue;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return SwaleCli.INTERRUPTED;
                }
                if (!a.ok()) {
                    if (!transientStatus(a.status())) {
                        err.println("error: " + a.detail());
                        return SwaleCli.FAILED;
                    }
                    String detail = a.detail().startsWith("HTTP ") ? a.detail() : "HTTP " + a.status() + ": " + a.detail();
                    problem = passing(err, problem, detail.length() > 200 ? detail.substring(0, 200) + "…" : detail);
                    continue;
                }
                problem = null;
                String state = a.body().path("state").asString("");
                if (state.equals("active")) {
                    continue;
                }
                if (RunState.fromWireName(state).isEmpty()) {
                    err.println("error: the service answered for run " + graph + "/" + partition + " with no run state "
                            + "(`" + state + "`): is --url the Swale service?");
                    return SwaleCli.FAILED;
                }
                it.remove();
                out.println("run " + graph + "/" + partition + " " + state);
                for (JsonNode n : a.body().path("nodes")) {
                    JsonNode record = n.path("record");
                    if (record.hasNonNull("error")) {
                        out.println(Table.errorLine("    ", n.path("name").asString(), record.get("error").asString()));
                    }
                }
                out.flush();
                failed |= state.equals("failed");
                cancelled |= state.equals("cancelled");
            }
            if (waiting.isEmpty()) {
                return failed ? SwaleCli.FAILED : cancelled ? SwaleCli.CANCELLED : SwaleCli.OK;
            }
            if (limit.isPresent() && System.nanoTime() - deadline >= 0) {
                err.println("timed out after " + timeout + ": still active: "
                        + String.join(" ", waiting.stream().map(p -> graph + "/" + p).toList()));
                return SwaleCli.TIMED_OUT;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return SwaleCli.INTERRUPTED;
            }
        }
    }

    /** A poll answered so is the service's passing trouble (restart, overload): the wait goes on. */
    static boolean transientStatus(int status) {
        return status >= 500 || status == 408 || status == 429;
    }

    /** At most {@link #MAX_REQUEST}, and no longer than the time {@code left} (at least a millisecond, which HTTP needs). */
    static Duration requestTimeout(Optional<Duration> left) {
        return left.map(l -> l.compareTo(MAX_REQUEST) >= 0 ? MAX_REQUEST
                : l.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : l).orElse(MAX_REQUEST);
    }

    /** Says once on stderr that polls fail and the wait goes on; a new kind of failure is said again. */
    private static String passing(PrintWriter err, String previous, String problem) {
        if (!problem.equals(previous)) {
            err.println("still waiting: " + problem);
            err.flush();
        }
        return problem;
    }
}
