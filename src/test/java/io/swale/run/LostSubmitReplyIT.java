package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.record.NodeStatus;
import io.swale.store.RunKey;
import io.swale.store.TaskStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A submission that Redis committed but whose answer the scheduler never got: when its event comes back, the store
 * answers `exists`, and the instance must be dispatched then rather than wait for the stale-dispatch sweep.
 */
class LostSubmitReplyIT {
    @Test
    void aSubmissionWhoseReplyWasLostIsDispatchedWhenItsEventComesBack() throws Exception {
        AtomicBoolean lose = new AtomicBoolean();
        try (RunHarness h = new RunHarness(r -> r, t -> RunHarness.after(TaskStore.class, t, (method, args) -> {
            if (method.startsWith("submit") && lose.getAndSet(false)) {
                throw new JedisConnectionException("Read timed out");
            }
        }))) {
            String g = RunHarness.graphName("lostsubmit");
            String hash = h.chain(g);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            h.finish(key, "a", 0, NodeStatus.SUCCEEDED, hash);
            h.dispatches.clear();

            lose.set(true);
            assertThatThrownBy(() -> h.graphRuns.onTaskTerminated(key, "a")).isInstanceOf(JedisConnectionException.class);
            assertThat(h.dispatches).isEmpty();
            assertThat(h.runs.read(key).orElseThrow().instances().values()).as("b committed")
                    .anyMatch(i -> i.runId().equals(key.runId("b", 0)));

            // the event comes back (the listener's retry)
            h.graphRuns.onTaskTerminated(key, "a");
            assertThat(h.dispatches).extracting(d -> d.identity().runId()).containsExactly(key.runId("b", 0));
            // answered once: a later `exists` dispatches nothing
            h.graphRuns.onTaskTerminated(key, "a");
            assertThat(h.dispatches).hasSize(1);
        }
    }
}
