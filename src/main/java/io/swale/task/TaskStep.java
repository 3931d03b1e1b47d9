package io.swale.task;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One step on the path from an upstream task instance's end to its downstream's start, as a Java Flight
 * Recorder event. Off unless a recording enables {@value #NAME} by name, so a production recording with the
 * JDK's settings does not pay for it; when off, a step costs a check the JIT folds away. The bench enables it
 * to tell what an edge pays between its two Kafka hops (docs/performance.md).
 */
@Name(TaskStep.NAME)
@Label("Task step")
@Category({"Swale", "Edge"})
@Description("A task instance reached a step between its upstream's end and its own start")
@Enabled(false)
@StackTrace(false)
public final class TaskStep extends Event {
    public static final String NAME = "io.swale.TaskStep";

    /** The steps, in the order a downstream passes them. */
    public enum Kind {
        /** The worker's finish script answered: the node record says the instance ended. */
        FINISHED("finished"),
        /** The scheduler's events listener polled the instance's task-terminated event. */
        EVENT_RECEIVED("event-received"),
        /** The scheduler read the instance's run (its node records) to find what is ready. */
        RUN_READ("run-read"),
        /** A downstream found ready, its submit script about to go. */
        SUBMITTING("submitting"),
        /** The submit script answered: the downstream instance is pending, its dispatch goes next. */
        SUBMITTED("submitted"),
        /** A pool listener polled the instance's dispatch. */
        DISPATCH_RECEIVED("dispatch-received"),
        /** A slot is reserved and the claim script about to go. */
        CLAIMING("claiming"),
        /** The claim script answered: the instance is running on this worker. */
        CLAIMED("claimed"),
        /** The attempt began on its slot's thread. */
        ATTEMPT_STARTED("attempt-started"),
        /** The operator returned; the settle comes next. */
        OPERATOR_RETURNED("operator-returned");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }

    @Label("Step")
    String step;

    @Label("Graph")
    String graph;

    @Label("Partition")
    String partition;

    @Label("Node")
    String node;

    private TaskStep() {}

    /** Records that the instance of {@code node} in {@code graph}/{@code partition} reached {@code kind}. */
    public static void reached(Kind kind, String graph, String partition, String node) {
        TaskStep e = new TaskStep();
        if (e.shouldCommit()) {
            e.step = kind.wireName();
            e.graph = graph;
            e.partition = partition;
            e.node = node;
            e.commit();
        }
    }

    /** As {@link #reached(Kind, String, String, String)}, for the instance {@code id}. */
    public static void reached(Kind kind, TaskIdentity id) {
        reached(kind, id.graph(), id.partition().key(), id.node());
    }
}
