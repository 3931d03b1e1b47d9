package io.swale.task;

/**
 * A failure of a scheduler action, classified as spec §7.12 does: a permanent one is dead-lettered by a
 * listener and refused to a request; a transient one is retried.
 */
public abstract sealed class SwaleException extends RuntimeException {
    protected SwaleException(String message) {
        super(message);
    }

    public abstract boolean permanent();

    public static final class UnknownDefinition extends SwaleException {
        public UnknownDefinition(String hash) {
            super("definition `" + hash + "` is not in the definition store");
        }

        @Override
        public boolean permanent() {
            return false;
        }
    }

    public static final class UnknownGraph extends SwaleException {
        public UnknownGraph(String graph) {
            super("graph `" + graph + "` does not have an adopted definition");
        }

        @Override
        public boolean permanent() {
            return true;
        }
    }

    public static final class UnknownGraphRun extends SwaleException {
        public UnknownGraphRun(String graph, String partition) {
            super("graph `" + graph + "` does not have a run for partition `" + partition + "`");
        }

        @Override
        public boolean permanent() {
            return true;
        }
    }

    public static final class UnknownNode extends SwaleException {
        public UnknownNode(String graph, String node) {
            super("graph `" + graph + "` does not have a node `" + node + "`");
        }

        @Override
        public boolean permanent() {
            return true;
        }
    }

    public static final class NoPartition extends SwaleException {
        public NoPartition(String graph) {
            super("the trigger of graph `" + graph + "` does not determine a partition");
        }

        @Override
        public boolean permanent() {
            return true;
        }
    }

    public static final class UnknownPool extends SwaleException {
        public UnknownPool(String node, String pool) {
            super("node `" + node + "`: pool `" + pool + "` is not configured");
        }

        @Override
        public boolean permanent() {
            return false;
        }
    }

    public static final class Contended extends SwaleException {
        public Contended(String graph, String partition) {
            super("the run of graph `" + graph + "` for partition `" + partition + "` changed during the transition");
        }

        @Override
        public boolean permanent() {
            return false;
        }
    }

    public static final class InputMismatch extends SwaleException {
        public InputMismatch(String runId) {
            super("task instance `" + runId + "` is active with a different input");
        }

        @Override
        public boolean permanent() {
            return true;
        }
    }

    public static final class AssetConflict extends SwaleException {
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

        @Override
        public boolean permanent() {
            return true;
        }
    }

    /** A message on a Swale topic that is not of the expected form. */
    public static final class Malformed extends SwaleException {
        public Malformed(String message) {
            super(message);
        }

        @Override
        public boolean permanent() {
            return true;
        }
    }
}
