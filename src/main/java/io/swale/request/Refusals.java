package io.swale.request;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reasons of refused requests (spec §10), and their classification back from the recorded text, so a
 * replayed request is answered exactly as the first one was.
 */
public final class Refusals {
    /** What kind of refusal a recorded reason states. */
    public sealed interface Kind {
        /** A rerun whose instance at that count is still active. */
        record Active(String runId) implements Kind {}

        record NotReady(String node) implements Kind {}

        record NoRecord(String node) implements Kind {}

        /** Names a graph, run or node that does not exist. */
        record Unknown() implements Kind {}

        /** A cancel of a run that is not active. */
        record NotActive() implements Kind {}

        record Other() implements Kind {}
    }

    private static final Pattern ACTIVE = Pattern.compile("task instance `([^`]+)` is still active");
    private static final Pattern NOT_READY = Pattern.compile("the trigger rule of node `([^`]+)` is not met");
    private static final Pattern NO_RECORD = Pattern.compile("node `([^`]+)` has no record yet");
    private static final Pattern NOT_ACTIVE = Pattern.compile("has no active run for partition");
    private static final Pattern UNKNOWN = Pattern.compile(
            "does not have an adopted definition|does not have a run for partition|does not have a node");

    private Refusals() {}

    public static String active(String runId) {
        return "task instance `" + runId + "` is still active";
    }

    public static String notReady(String node) {
        return "the trigger rule of node `" + node + "` is not met";
    }

    public static String noRecord(String node) {
        return "node `" + node + "` has no record yet";
    }

    public static String notActive(String graph, String partition) {
        return "graph `" + graph + "` has no active run for partition `" + partition + "`";
    }

    public static Kind classify(String reason) {
        return group(ACTIVE, reason).<Kind>map(Kind.Active::new)
                .or(() -> group(NOT_READY, reason).map(Kind.NotReady::new))
                .or(() -> group(NO_RECORD, reason).map(Kind.NoRecord::new))
                .orElseGet(() -> NOT_ACTIVE.matcher(reason).find() ? new Kind.NotActive()
                        : UNKNOWN.matcher(reason).find() ? new Kind.Unknown() : new Kind.Other());
    }

    private static Optional<String> group(Pattern p, String reason) {
        Matcher m = p.matcher(reason);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
