package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.RunKey;
import io.swale.task.SwaleException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A node whose pool this installation does not configure (spec §9: its submission fails with UnknownPool,
 * transient): the run is created all the same and the nodes in configured pools go on; the reconciler submits
 * the node once its pool is configured.
 */
class UnknownPoolIT {
    @Test
    void aRootInAnUnconfiguredPoolStillCreatesTheRunAndLetsTheOtherRootsGo() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("roots");
            String hash = h.publish("""
                    [graph]
                    name = "%s"
                    [[node]]
                    name = "a"
                    operator = "noop"
                    [[node]]
                    name = "g"
                    operator = "noop"
                    pool = "gpu"
                    """.formatted(g));
            h.unconfiguredPools.add("gpu");
            RunKey key = h.key(g);

            // the start took effect, and says so: the root in gpu waits for its pool
            assertThat(h.graphRuns.startRun(hash, key.partition()))
                    .isEqualTo(new GraphRuns.Started(true, List.of(key.runId("a", 0))));

            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);
            assertThat(h.runs.activeRuns()).contains(key);
            assertThat(h.dispatches).extracting(d -> d.identity().runId()).containsExactly(key.runId("a", 0));
            // the start again is a no-op, as for any run that exists (spec §7.2)
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isFalse();

            h.unconfiguredPools.clear();
            h.reconciler(60_000).pass();
            assertThat(h.dispatches).extracting(d -> d.identity().runId())
                    .containsExactly(key.runId("a", 0), key.runId("g", 0));
        }
    }

    @Test
    void readyNodesInAnUnconfiguredPoolDoNotHoldUpTheirReadySiblings() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("siblings");
            String hash = h.publish("""
                    [graph]
                    name = "%s"
                    [[node]]
                    name = "a"
                    operator = "noop"
                    [[node]]
                    name = "b"
                    operator = "noop"
                    after = ["a"]
                    [[node]]
                    name = "c"
                    operator = "noop"
                    pool = "gpu"
                    after = ["a"]
                    [[node]]
                    name = "d"
                    operator = "noop"
                    after = ["a"]
                    [[node]]
                    name = "m"
                    operator = "noop"
                    pool = "gpu"
                    after = ["a"]
                    map = "{{ upstream.a.items }}"
                    """.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            h.unconfiguredPools.add("gpu");
            h.finish(key, "a", 0, NodeStatus.SUCCEEDED, hash,
                    Optional.of(JsonMapper.builder().build().readTree("{\"items\": [1, 2]}")));

            assertThatThrownBy(() -> h.graphRuns.onTaskTerminated(key, "a"))
                    .isInstanceOf(SwaleException.UnknownPool.class).hasMessageContaining("gpu");

            assertThat(h.dispatches).extracting(d -> d.identity().runId())
                    .containsExactly(key.runId("a", 0), key.runId("b", 0), key.runId("d", 0));
            assertThat(h.runs.read(key).orElseThrow().instances()).doesNotContainKeys(key.runId("c", 0),
                    key.runId("m[0]", 0));
        }
    }
}
