package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.record.NodeStatus;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;
import tools.jackson.databind.json.JsonMapper;

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

    /**
     * The same for the items of a mapped node: the advance that comes back with the event finds them pending and
     * does not submit them again, so no `exists` answer would come; it dispatches those whose submission was in doubt.
     */
    @Test
    void mappedItemsWhoseSubmissionReplyWasLostAreDispatchedWhenTheirEventComesBack() throws Exception {
        AtomicBoolean lose = new AtomicBoolean();
        try (RunHarness h = new RunHarness(r -> r, t -> RunHarness.after(TaskStore.class, t, (method, args) -> {
            if (method.equals("submitItems") && lose.getAndSet(false)) {
                throw new JedisConnectionException("Read timed out");
            }
        }))) {
            String g = RunHarness.graphName("lostitems");
            String hash = h.publish("""
                    [graph]
                    name = "%s"
                    [[node]]
                    name = "list"
                    operator = "noop"
                    [[node]]
                    name = "each"
                    after = ["list"]
                    operator = "noop"
                    map = "{{ upstream.list.items }}"
                    max_parallel = 2
                    """.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            h.finish(key, "list", 0, NodeStatus.SUCCEEDED, hash,
                    Optional.of(JsonMapper.builder().build().readTree("{\"items\": [0, 1, 2]}")));
            h.dispatches.clear();

            lose.set(true);
            assertThatThrownBy(() -> h.graphRuns.onTaskTerminated(key, "list"))
                    .isInstanceOf(JedisConnectionException.class);
            assertThat(h.dispatches).isEmpty();
            assertThat(h.runs.read(key).orElseThrow().instances().values()).as("two items committed")
                    .filteredOn(i -> i.node().startsWith("each[")).extracting(TaskInstance::status)
                    .containsExactly(InstanceStatus.PENDING, InstanceStatus.PENDING);

            // the event comes back (the listener's retry)
            h.graphRuns.onTaskTerminated(key, "list");
            assertThat(h.dispatches).extracting(d -> d.identity().runId())
                    .containsExactlyInAnyOrder(key.runId("each[0]", 0), key.runId("each[1]", 0));
            // answered once: a later advance dispatches nothing more
            h.graphRuns.onTaskTerminated(key, "list");
            assertThat(h.dispatches).hasSize(2);
        }
    }
}
