package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Partition;
import io.swale.kafka.EventsListener;
import io.swale.record.NodeStatus;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.redis.RedisKeys;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.BatchListenerFailedException;

/**
 * The events of one poll: their runs read together in one round trip, their submissions sent together in
 * another, each run advanced as it was alone.
 */
class EventsOfOnePollIT {
    private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> submits = new ConcurrentHashMap<>();

    private RunHarness harness() throws Exception {
        return RunHarness.counting(reads, submits);
    }

    private static ConsumerRecord<String, byte[]> event(RunKey key, String node, long offset) {
        String json = "{\"graph\":\"%s\",\"partition\":\"%s\",\"node\":\"%s\",\"status\":\"succeeded\"}"
                .formatted(key.graph(), key.partition().key(), node);
        return new ConsumerRecord<>("swale.events", 0, offset, key.id(), json.getBytes(StandardCharsets.UTF_8));
    }

    /** Runs of a fresh chain, one per partition, each started and its node `a` succeeded; dispatches cleared. */
    private static List<RunKey> runsWithAEnded(RunHarness h, String... partitions) throws Exception {
        String g = RunHarness.graphName("poll");
        String hash = h.chain(g);
        List<RunKey> keys = new java.util.ArrayList<>();
        for (String p : partitions) {
            RunKey k = new RunKey(g, Partition.of(p));
            assertThat(h.graphRuns.startRun(hash, k.partition()).started()).isTrue();
            h.finish(k, "a", 0, NodeStatus.SUCCEEDED, hash);
            keys.add(k);
        }
        h.dispatches.clear();
        return keys;
    }

    @Test
    void theRunsOfOnePollAreReadInOneRoundTripAndEachIsAdvanced() throws Exception {
        try (RunHarness h = harness()) {
            List<RunKey> keys = runsWithAEnded(h, "one", "two");
            RunKey one = keys.get(0);
            RunKey two = keys.get(1);
            RunKey none = new RunKey(one.graph(), Partition.of("none"));
            reads.clear();
            submits.clear();

            new EventsListener(h.graphRuns).onEvents(List.of(event(one, "a", 0), event(none, "a", 1),
                    event(two, "a", 2), event(one, "a", 3)));

            assertThat(reads.get("readEach")).hasValue(1);
            assertThat(reads).doesNotContainKey("read");
            assertThat(submits.get("submitEach")).hasValue(1);
            assertThat(submits).doesNotContainKeys("submit", "submitAll");
            assertThat(h.dispatches).extracting(d -> d.identity().runId())
                    .containsExactly(one.runId("b", 0), two.runId("b", 0));
        }
    }

    @Test
    void theRunsThatEndInOnePollSettleInOneRoundTripAndLeaveTheActiveIndex() throws Exception {
        try (RunHarness h = harness()) {
            List<RunKey> keys = runsWithAEnded(h, "one", "two", "three");
            String hash = h.graphRuns.readRuns(keys).values().stream()
                    .map(r -> ((RunStore.Read.Found) r).view().run().definition()).findFirst().orElseThrow();
            for (RunKey k : keys) {
                h.graphRuns.onTaskTerminated(k, "a");
                h.finish(k, "b", 0, NodeStatus.SUCCEEDED, hash);
            }
            reads.clear();

            new EventsListener(h.graphRuns).onEvents(List.of(event(keys.get(0), "b", 0), event(keys.get(1), "b", 1),
                    event(keys.get(2), "b", 2)));

            assertThat(reads.get("settleEach")).hasValue(1);
            assertThat(reads).doesNotContainKeys("compareAndSettle", "dropActive");
            for (RunKey k : keys) {
                assertThat(h.runs.read(k).orElseThrow().run().state()).isEqualTo(io.swale.record.RunState.COMPLETE);
            }
            assertThat(h.runs.activeRuns()).doesNotContainAnyElementsOf(keys);
        }
    }

    @Test
    void settlesThatRedisDoesNotAnswerFailTheFirstSettlingRunsRecordAfterTheOthersWereDispatched() throws Exception {
        try (RunHarness h = new RunHarness(r -> RunHarness.before(RunStore.class, r, (method, args) -> {
            if (method.equals("settleEach")) {
                throw new redis.clients.jedis.exceptions.JedisConnectionException("no answer");
            }
        }), t -> t)) {
            List<RunKey> keys = runsWithAEnded(h, "ending", "going");
            RunKey ending = keys.get(0);
            RunKey going = keys.get(1);
            String hash = ((RunStore.Read.Found) h.graphRuns.readRuns(List.of(ending)).get(ending)).view().run()
                    .definition();
            h.graphRuns.onTaskTerminated(ending, "a");
            h.finish(ending, "b", 0, NodeStatus.SUCCEEDED, hash);
            h.dispatches.clear();
            ConsumerRecord<String, byte[]> endingFirst = event(ending, "b", 1);

            assertThatThrownBy(() -> new EventsListener(h.graphRuns).onEvents(List.of(event(going, "a", 0),
                    endingFirst))).isInstanceOfSatisfying(BatchListenerFailedException.class,
                            e -> assertThat(e.getRecord()).isSameAs(endingFirst));
            assertThat(h.dispatches).extracting(d -> d.identity().runId()).containsExactly(going.runId("b", 0));
            assertThat(h.runs.read(ending).orElseThrow().run().state()).isEqualTo(io.swale.record.RunState.ACTIVE);
        }
    }

    @Test
    void anUnreadableRunFailsItsOwnFirstRecordAfterTheRunsBeforeItAdvanced() throws Exception {
        try (RunHarness h = harness()) {
            List<RunKey> keys = runsWithAEnded(h, "good", "bad");
            RunKey good = keys.get(0);
            RunKey bad = keys.get(1);
            h.pool.set(new RedisKeys(h.prefix).run(bad), "not a run record");
            ConsumerRecord<String, byte[]> badFirst = event(bad, "a", 1);

            assertThatThrownBy(() -> new EventsListener(h.graphRuns).onEvents(List.of(event(good, "a", 0), badFirst,
                    event(bad, "a", 2)))).isInstanceOfSatisfying(BatchListenerFailedException.class,
                            e -> assertThat(e.getRecord()).isSameAs(badFirst));
            assertThat(h.dispatches).extracting(d -> d.identity().runId()).containsExactly(good.runId("b", 0));
        }
    }

    @Test
    void aRunWhoseSubmissionFailsFailsItsOwnFirstRecordAndTheRunsAfterItAreStillDispatched() throws Exception {
        try (RunHarness h = harness()) {
            List<RunKey> keys = runsWithAEnded(h, "bad", "good");
            RunKey bad = keys.get(0);
            RunKey good = keys.get(1);
            // the run reads well, but its submit script fails on a key of the wrong type
            h.pool.set(new RedisKeys(h.prefix).inputs(bad), "not a hash");
            ConsumerRecord<String, byte[]> badFirst = event(bad, "a", 0);
            submits.clear();

            assertThatThrownBy(() -> new EventsListener(h.graphRuns).onEvents(List.of(badFirst, event(good, "a", 1))))
                    .isInstanceOfSatisfying(BatchListenerFailedException.class,
                            e -> assertThat(e.getRecord()).isSameAs(badFirst));
            // the good run's instance is dispatched now, not left pending for the reconciler
            assertThat(h.dispatches).extracting(d -> d.identity().runId()).containsExactly(good.runId("b", 0));
            assertThat(submits.get("submitEach")).hasValue(1);
        }
    }
}
