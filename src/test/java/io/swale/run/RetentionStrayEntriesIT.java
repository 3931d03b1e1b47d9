package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.store.RunKey;
import io.swale.store.redis.RedisExpiryStore;
import io.swale.store.redis.RedisKeys;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Expiry entries the service never writes, put there by hand (spec §12), on a real redis-server. */
class RetentionStrayEntriesIT {

    /**
     * A stale entry the store cannot delete: a run's entry in another shard than its run's, one whose score is no whole
     * number. Was: each read of the due entries handed it back, and the pass never ended.
     */
    @Test
    void aStaleEntryThatCannotBeDeletedIsPassedOverAndThePassEnds() throws Exception {
        try (RunHarness h = new RunHarness()) {
            RedisKeys keys = new RedisKeys(h.prefix);
            RunKey elsewhere = new RunKey(RunHarness.graphName("stray"), Partition.of("p"));
            RunKey fraction = new RunKey(RunHarness.graphName("stray"), Partition.of("q"));
            int wrongShard = (RedisKeys.shardOf(elsewhere) + 1) % RedisKeys.SHARDS;
            h.pool.zadd(keys.expiry(wrongShard), 5, "run:" + elsewhere.id());
            h.pool.zadd(keys.expiry(fraction), 5.5, "run:" + fraction.id());
            RetentionPass pass = new RetentionPass(new RedisExpiryStore(h.pool, h.prefix), h.catalog,
                    Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC), Duration.ofMillis(1_000));

            RetentionPass.Report report = CompletableFuture.supplyAsync(pass::run).get(30, TimeUnit.SECONDS);

            assertThat(report.runs()).isZero();
            assertThat(report.error()).isEmpty();
            assertThat(h.pool.zscore(keys.expiry(wrongShard), "run:" + elsewhere.id())).as("left where it was")
                    .isEqualTo(5.0);
        }
    }
}
