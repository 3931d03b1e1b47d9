package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.store.ExpiryStore;
import io.swale.store.RunKey;
import io.swale.store.redis.RedisExpiryStore;
import io.swale.store.redis.RedisKeys;
import io.swale.store.redis.RedisRunStore;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/** Retention deleting a run while a start of the same partition creates it again (spec §12). */
class RetentionRacesIT {
    /**
     * The start lands between the delete and the index cleanup that follows it. Was: the cleanup removed the new
     * run's entries, so the reconciler never found it and the graph's run list never showed it.
     */
    @Test
    void aRunStartedAgainWhileRetentionDeletesItsOldOneStaysInBothIndexes() throws Exception {
        try (RunHarness h = new RunHarness()) {
            RunKey key = new RunKey(RunHarness.graphName("expire"), Partition.of("p"));
            h.runs.create(key, GraphRunRecord.started("h", 1));
            RedisKeys keys = new RedisKeys(h.prefix);
            String list = keys.runsOfGraph(key.graph());
            try (InterleavingRedisProxy proxy = new InterleavingRedisProxy(h.server.orElseThrow().ports().getFirst(),
                    command -> command.getFirst().equalsIgnoreCase("ZREM"),
                    () -> h.runs.create(key, GraphRunRecord.started("h", 2)));
                    JedisPooled throughProxy = new JedisPooled("127.0.0.1", proxy.port())) {
                RedisExpiryStore expiry = new RedisExpiryStore(throughProxy, h.prefix);
                var old = expiry.run(key).orElseThrow();

                assertThat(expiry.expireRun(key, old.version(), new ExpiryStore.Entry("run:" + key.id(), 1))).isTrue();
                assertThat(proxy.stepped()).as("the start ran between the delete and the cleanup").isTrue();
            }

            assertThat(h.runs.read(key).orElseThrow().run().requestedAtMs()).isEqualTo(2);
            assertThat(h.pool.zscore(keys.activeRuns(key), key.id())).as("found by the reconciler").isNotNull();
            assertThat(h.pool.zscore(list, key.partition().key())).as("listed").isNotNull();
            assertThat(h.runs.graphsWithRuns()).contains(key.graph());
        }
    }

    /**
     * Retention deletes the old run just before the start writes the new one. Was: the start's index entry went
     * first, retention's cleanup of the old run removed it, and the new run, active, was in no index the
     * reconciler walks.
     */
    @Test
    void aRunStartedAgainJustAfterRetentionDeletedItsOldOneIsFoundByTheReconciler() throws Exception {
        try (RunHarness h = new RunHarness()) {
            RunKey key = new RunKey(RunHarness.graphName("expire"), Partition.of("p"));
            h.runs.create(key, GraphRunRecord.started("h", 1));
            RedisKeys keys = new RedisKeys(h.prefix);
            RedisExpiryStore expiry = new RedisExpiryStore(h.pool, h.prefix);
            var old = expiry.run(key).orElseThrow();
            try (InterleavingRedisProxy proxy = new InterleavingRedisProxy(h.server.orElseThrow().ports().getFirst(),
                    command -> command.contains(keys.run(key)),
                    () -> assertThat(expiry.expireRun(key, old.version(), new ExpiryStore.Entry("run:" + key.id(), 1)))
                            .isTrue());
                    JedisPooled throughProxy = new JedisPooled("127.0.0.1", proxy.port())) {
                assertThat(new RedisRunStore(throughProxy, h.prefix).create(key, GraphRunRecord.started("h", 2))).isTrue();
                assertThat(proxy.stepped()).as("retention ran just before the run was written").isTrue();
            }

            assertThat(h.runs.read(key).orElseThrow().run().requestedAtMs()).isEqualTo(2);
            assertThat(h.runs.activeRuns()).as("found by the reconciler").contains(key);
            assertThat(h.pool.zscore(keys.runsOfGraph(key.graph()), key.partition().key())).as("listed").isNotNull();
            assertThat(h.runs.graphsWithRuns()).contains(key.graph());
        }
    }
}
