package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.RunKey;
import io.swale.store.RunView;
import io.swale.store.redis.RedisKeys;
import io.swale.store.redis.RedisRunStore;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * A run is read in one pipeline, and another client's script can run between two of its reads. An attempt that
 * ends there must not leave a view whose node record is older than its instance: a settle would take the node's
 * earlier failure for its last word while the rerun that succeeded shows as no longer active.
 */
class TornRunReadIT {

    @Test
    void aRerunThatEndsBetweenTheTwoHashReadsOfAViewIsNotSettledFromItsEarlierFailure() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("torn");
            RunKey key = h.runWithFailedRoot(g);
            String hash = h.runs.read(key).orElseThrow().run().definition();
            assertThat(h.graphRuns.advance(h.runs.read(key).orElseThrow(), List.of("a", "b")).settled()).isTrue();
            assertThat(h.reruns.rerun(g, key.partition(), "a")).isEqualTo(new RerunOutcome.Submitted(key.runId("a", 1)));

            RedisKeys keys = new RedisKeys(h.prefix);
            Set<String> runHashes = Set.of(keys.nodeRecords(key), keys.instances(key));
            AtomicInteger hashReads = new AtomicInteger();
            RunView view;
            // the rerun's attempt ends between the view's two hash reads, whichever the store reads first
            try (InterleavingRedisProxy proxy = new InterleavingRedisProxy(h.server.orElseThrow().ports().getFirst(),
                    command -> command.getFirst().equalsIgnoreCase("HGETALL") && runHashes.contains(command.get(1))
                            && hashReads.incrementAndGet() == 2,
                    () -> h.finish(key, "a", 1, NodeStatus.SUCCEEDED, hash));
                    JedisPooled throughProxy = new JedisPooled("127.0.0.1", proxy.port())) {
                view = new RedisRunStore(throughProxy, h.prefix).read(key).orElseThrow();
                assertThat(proxy.stepped()).isTrue();
            }
            // a-r1's own event comes later and moves b; this is an advance that reads the run meanwhile
            assertThat(h.graphRuns.advance(view, List.of("a", "b")).settled()).isFalse();

            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.ACTIVE);
        }
    }
}
