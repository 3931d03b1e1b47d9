package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.RunState;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A cancel is committed on the run record first, then its instances are cancelled one by one. A store error among
 * those leaves a cancelled run with an active instance, which the reconciler's passes cancel: the cancel itself
 * answers true, so that a client's retry of the request is not recorded as refused.
 */
class CancelCommittedIT {

    /** A started run of the harness's chain graph, named after {@code stem}. */
    private static RunKey startedChain(RunHarness h, String stem) {
        String g = RunHarness.graphName(stem);
        String hash = h.chain(g);
        RunKey key = h.key(g);
        assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
        return key;
    }

    @Test
    void aCancelWhoseInstanceCancelFailsIsStillTrueAndTheReconcilerEndsTheInstance() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        UnaryOperator<TaskStore> failingCancel = t -> RunHarness.before(TaskStore.class, t, (method, args) -> {
            if (method.equals("cancelOfCancelledRun") && failOnce.compareAndSet(true, false)) {
                throw new JedisConnectionException("connection reset");
            }
        });
        try (RunHarness h = new RunHarness(UnaryOperator.identity(), failingCancel)) {
            RunKey key = startedChain(h, "cancelblip");
            String g = key.graph();

            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();
            assertThat(failOnce).isFalse();
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.CANCELLED);
            assertThat(h.runs.read(key).orElseThrow().instances().get(key.runId("a", 0)).status())
                    .isEqualTo(InstanceStatus.PENDING);

            assertThat(h.reconciler(60_000).pass().failed()).isZero();

            assertThat(h.runs.read(key).orElseThrow().instances().get(key.runId("a", 0)).status())
                    .isEqualTo(InstanceStatus.CANCELLED);
        }
    }

    /**
     * The run's cancel commits, and its reply is lost (a read timeout, or too few replicas under
     * durability=wait). Was: the error reached the client, whose retry found the run settled and was refused as
     * "no active run", for a cancel that took effect; and the instances were left to the reconciler.
     */
    @Test
    void aCancelCommittedWhoseReplyIsLostIsTrueAndCancelsTheInstances() throws Exception {
        AtomicBoolean loseOnce = new AtomicBoolean(true);
        UnaryOperator<RunStore> losingReply = r -> RunHarness.after(RunStore.class, r, (method, args) -> {
            if (method.equals("compareAndSettle") && loseOnce.compareAndSet(true, false)) {
                throw new JedisConnectionException("java.net.SocketTimeoutException: Read timed out");
            }
        });
        try (RunHarness h = new RunHarness(losingReply, UnaryOperator.identity())) {
            RunKey key = startedChain(h, "cancellost");
            String g = key.graph();

            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();

            assertThat(loseOnce).isFalse();
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.CANCELLED);
            assertThat(h.runs.read(key).orElseThrow().instances().get(key.runId("a", 0)).status())
                    .isEqualTo(InstanceStatus.CANCELLED);
        }
    }

    /** A cancel that did not commit still reports its error, to be tried again. */
    @Test
    void aCancelThatDidNotCommitStillFails() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        UnaryOperator<RunStore> failing = r -> RunHarness.before(RunStore.class, r, (method, args) -> {
            if (method.equals("compareAndSettle") && failOnce.compareAndSet(true, false)) {
                throw new JedisConnectionException("connection refused");
            }
        });
        try (RunHarness h = new RunHarness(failing, UnaryOperator.identity())) {
            RunKey key = startedChain(h, "cancelfail");
            String g = key.graph();

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> h.cancellation.cancel(g, key.partition()))
                    .isInstanceOf(JedisConnectionException.class);
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);
            assertThat(h.cancellation.cancel(g, key.partition())).as("the retry").isTrue();
        }
    }
}
