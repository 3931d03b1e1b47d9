package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.RecordCodec;
import io.swale.store.RunKey;
import io.swale.store.redis.RedisKeys;
import io.swale.task.ReconcilePass;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 18 (ChaosIT): a scheduler killed between a downstream's submission and its dispatch leaves the instance
 * pending with no dispatch on its way; the event, handled again by the next owner of its partition, finds the
 * instance submitted and sends nothing. The periodic pass waits for `stale-dispatch` (60 s); the pass after a
 * fault sends it again once its dispatch is {@link Reconciler#FAULT_STALE_DISPATCH_MS} old. On a real
 * redis-server.
 */
class AfterFaultPassIT {
    @Test
    void aPassAfterAFaultDispatchesAgainAnInstanceWhoseDispatchDiedWithItsScheduler() throws Exception {
        try (RunHarness h = new RunHarness()) {
            RunKey key = startedChain(h, "fault");
            String runId = key.runId("a", 0);
            backdateDispatch(h, key, runId, Reconciler.FAULT_STALE_DISPATCH_MS);
            // the event handled again finds the instance submitted, and sends nothing
            h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("a"));
            assertThat(h.dispatches).isEmpty();
            Reconciler reconciler = h.reconciler(60_000);

            ReconcilePass periodic = reconciler.pass();
            ReconcilePass afterFault = reconciler.passAfterFault();

            assertThat(periodic.redispatched()).isZero();
            assertThat(afterFault.redispatched()).isEqualTo(1);
            assertThat(h.dispatches).extracting(d -> d.identity().runId()).containsExactly(runId);
            // sent again once: its dispatch is fresh again
            assertThat(reconciler.passAfterFault().redispatched()).isZero();
        }
    }

    @Test
    void aRedispatchAfterAFaultDoesNotPutOffThePeriodicOne() throws Exception {
        try (RunHarness h = new RunHarness()) {
            RunKey key = startedChain(h, "faultbackoff");
            String runId = key.runId("a", 0);
            Reconciler reconciler = h.reconciler(60_000);
            backdateDispatch(h, key, runId, Reconciler.FAULT_STALE_DISPATCH_MS);
            assertThat(reconciler.passAfterFault().redispatched()).isEqualTo(1);

            // that dispatch is lost too: the periodic pass sends it once stale-dispatch is over, not twice that
            backdateDispatch(h, key, runId, 60_000);

            assertThat(reconciler.pass().redispatched()).isEqualTo(1);
            assertThat(h.dispatches).hasSize(2);
        }
    }

    /** A started chain a → b whose root's dispatch, sent with its submission, never reached Kafka. */
    private static RunKey startedChain(RunHarness h, String stem) {
        String g = RunHarness.graphName(stem);
        RunKey key = h.key(g);
        h.graphRuns.startRun(h.chain(g), key.partition());
        h.dispatches.clear();
        return key;
    }

    private static void backdateDispatch(RunHarness h, RunKey key, String runId, long ms) {
        String instances = new RedisKeys(h.prefix).instances(key);
        ObjectNode o = (ObjectNode) RecordCodec.JSON.readTree(h.pool.hget(instances, runId));
        o.put("dispatched", o.get("dispatched").asLong() - ms);
        h.pool.hset(instances, runId, RecordCodec.text(o));
    }
}
