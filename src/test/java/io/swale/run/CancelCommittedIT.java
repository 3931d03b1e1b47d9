package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.RunState;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
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

    @Test
    void aCancelWhoseInstanceCancelFailsIsStillTrueAndTheReconcilerEndsTheInstance() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        UnaryOperator<TaskStore> failingCancel = t -> RunHarness.before(TaskStore.class, t, (method, args) -> {
            if (method.equals("cancel") && failOnce.compareAndSet(true, false)) {
                throw new JedisConnectionException("connection reset");
            }
        });
        try (RunHarness h = new RunHarness(UnaryOperator.identity(), failingCancel)) {
            String g = RunHarness.graphName("cancelblip");
            String hash = h.chain(g);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();

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
}
