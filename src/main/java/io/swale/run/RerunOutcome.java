package io.swale.run;

/** What a rerun request did (spec §7.8). */
public sealed interface RerunOutcome {
    /** A new task instance was submitted. */
    record Submitted(String runId) implements RerunOutcome {}

    /** An instance at that rerun count already exists and is still there. */
    record Active(String runId) implements RerunOutcome {}

    /** The node's trigger rule is not met by the current records; nothing was written. */
    record NotReady(String node) implements RerunOutcome {}

    /** The node has no record yet; nothing was written. */
    record NoRecord(String node) implements RerunOutcome {}
}
