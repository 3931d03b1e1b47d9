package io.swale.task;

/**
 * A failure of a scheduler action, classified by its type as spec §7.12 does: a {@link Permanent} one is
 * dead-lettered by a listener at once and refused to a request; a {@link Transient} one is retried.
 *
 * <p>A Swale exception never carries a cause: it is always the root cause of whatever wraps it, so the
 * listeners' error handlers find it by type and its message is the reason a dead letter records.
 */
public abstract sealed class SwaleException extends RuntimeException {
    private SwaleException(String message) {
        super(message);
    }

    /** No retry can change the outcome: the input or the state it names is wrong. */
    public abstract static sealed class Permanent extends SwaleException {
        private Permanent(String message) {
            super(message);
        }
    }

    /** Another try may succeed: the state is catching up or was changed concurrently. */
    public abstract static sealed class Transient extends SwaleException {
        private Transient(String message) {
            super(message);
        }
    }

    /** A definition not stored yet: the writer of the hash may still be on its way. */
    public static final class UnknownDefinition extends Transient {
        private final String hash;

        public UnknownDefinition(String hash) {
            super("definition `" + hash + "` is not in the definition store");
            this.hash = hash;
        }

        public String hash() {
            return hash;
        }
    }

    public static final class UnknownGraph extends Permanent {
        public UnknownGraph(String graph) {
            super("graph `" + graph + "` does not have an adopted definition");
        }
    }

    public static final class UnknownGraphRun extends Permanent {
        public UnknownGraphRun(String graph, String partition) {
            super("graph `" + graph + "` does not have a run for partition `" + partition + "`");
        }
    }

    public static final class UnknownNode extends Permanent {
        public UnknownNode(String graph, String node) {
            super("graph `" + graph + "` does not have a node `" + node + "`");
        }
    }

    public static final class NoPartition extends Permanent {
        public NoPartition(String graph) {
            super("the trigger of graph `" + graph + "` does not determine a partition");
        }
    }

    /** A pool another replica created and this one has not seen yet. */
    public static final class UnknownPool extends Transient {
        public UnknownPool(String node, String pool) {
            super("node `" + node + "`: pool `" + pool + "` is not configured");
        }
    }

    public static final class Contended extends Transient {
        public Contended(String graph, String partition) {
            super("the run of graph `" + graph + "` for partition `" + partition + "` changed during the transition");
        }
    }

    /** A publish whose check other publishes kept overtaking (each moved a pointer between its read and its move). */
    public static final class PublishContended extends Transient {
        public PublishContended(String graph) {
            super("other graphs' definitions kept changing while the definition of graph `" + graph
                    + "` was published: nothing was published, try again");
        }
    }

    /** A rerun that a later cancel overtook: the cancel stands, and the rerun is refused for good, not retried. */
    public static final class CancelledMeanwhile extends Permanent {
        public CancelledMeanwhile(String graph, String partition, String node) {
            super("the run of graph `" + graph + "` for partition `" + partition + "` was cancelled while the rerun of `"
                    + node + "` was applied: the cancel stands; rerun again to reopen the run");
        }
    }

    public static final class InputMismatch extends Permanent {
        public InputMismatch(String runId) {
            super("task instance `" + runId + "` is active with a different input");
        }
    }

    public static final class AssetConflict extends Permanent {
        private final String asset;
        private final String otherGraph;

        public AssetConflict(String node, String asset, String otherGraph) {
            super("node `" + node + "` produces asset `" + asset + "`, which graph `" + otherGraph + "` produces");
            this.asset = asset;
            this.otherGraph = otherGraph;
        }

        public String asset() {
            return asset;
        }

        public String otherGraph() {
            return otherGraph;
        }
    }

    /** A message on a Swale topic that is not of the expected form. */
    public static final class Malformed extends Permanent {
        public Malformed(String message) {
            super(message);
        }
    }
}
