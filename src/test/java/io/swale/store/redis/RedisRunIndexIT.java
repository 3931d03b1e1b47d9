package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.record.RunState;
import io.swale.store.RunKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;

/** The dashboard's reads of the run indexes against a real redis-server. */
@WithTestRedis
class RedisRunIndexIT {
    static UnifiedJedis pool;

    private final RedisRunStore runs = new RedisRunStore(pool, "ix");
    private final RedisRunIndex index = new RedisRunIndex(pool, "ix");

    @BeforeAll
    static void connect(UnifiedJedis redis) {
        pool = redis;
    }

    @Test
    void partitionsAreReadNewestFirstAndPagedAndCounted() {
        for (String p : List.of("20260912", "20260914", "20260913", "20260911")) {
            runs.create(new RunKey("paged", Partition.of(p)), GraphRunRecord.started("h", 1));
        }

        assertThat(index.partitionsNewestFirst("paged", 0, 3)).extracting(Partition::key)
                .containsExactly("20260914", "20260913", "20260912");
        assertThat(index.partitionsNewestFirst("paged", 3, 3)).extracting(Partition::key).containsExactly("20260911");
        assertThat(index.partitionsNewestFirst("paged", 4, 3)).isEmpty();
        assertThat(index.runCounts(List.of("paged", "none_yet"))).containsEntry("paged", 4L).containsEntry("none_yet", 0L);
    }

    /**
     * Spec §5.1: an index entry whose identity does not parse is skipped. The page is filled from the entries after
     * it, since a page shorter than asked is the end (interfaces §2). Was: `[p01, p02]`, and paging stopped there.
     */
    @Test
    void anEntryThatIsNoPartitionKeyIsSkippedAndThePageFilledFromTheEntriesAfterIt() {
        for (String p : List.of("p01", "p02", "p03", "p04", "p05")) {
            runs.create(new RunKey("skipping", Partition.of(p)), GraphRunRecord.started("h", 1));
        }
        pool.zadd(new RedisKeys("ix").runsOfGraph("skipping"), 0, "p02-x");
        pool.zadd(new RedisKeys("ix").runsOfGraph("skipping"), 0, "p03-y");

        assertThat(runs.partitions("skipping", Optional.empty(), 3)).extracting(Partition::key)
                .containsExactly("p01", "p02", "p03");
        assertThat(runs.partitions("skipping", Optional.of("p02"), 3)).extracting(Partition::key)
                .containsExactly("p02", "p03", "p04");
        assertThat(runs.partitions("skipping", Optional.of("p04"), 3)).extracting(Partition::key)
                .containsExactly("p04", "p05");
    }

    @Test
    void theNewestPartitionsOfManyGraphsAreReadInOneCall() {
        for (String p : List.of("20260912", "20260914", "20260913")) {
            runs.create(new RunKey("last_a", Partition.of(p)), GraphRunRecord.started("h", 1));
        }
        runs.create(new RunKey("last_b", Partition.of("x")), GraphRunRecord.started("h", 1));

        assertThat(runs.newestPartitions(List.of("last_a", "last_b", "last_none"), 2)).containsExactly(
                Map.entry("last_a", List.of(Partition.of("20260914"), Partition.of("20260913"))),
                Map.entry("last_b", List.of(Partition.of("x"))), Map.entry("last_none", List.of()));
        assertThat(runs.newestPartitions(List.of(), 2)).isEmpty();
        assertThat(runs.newestPartitions(List.of("last_a"), 0)).isEmpty();
    }

    @Test
    void settledRunsAreFoundBySettleTimeAndASettleAgainMovesThem() {
        RunKey a = new RunKey("settle", Partition.of("a"));
        RunKey b = new RunKey("settle", Partition.of("b"));
        settle(a, 1_000);
        settle(b, 5_000);

        assertThat(index.settledSince(2_000)).containsOnlyKeys(b).containsEntry(b, 5_000L);

        GraphRunRecord active = runs.read(a).orElseThrow().run().withState(RunState.ACTIVE, Optional.empty());
        runs.compareAndPut(a, runs.read(a).orElseThrow().version(), active);
        settle(a, 7_000);
        assertThat(index.settledSince(2_000)).containsEntry(a, 7_000L).containsEntry(b, 5_000L);
    }

    private void settle(RunKey key, long at) {
        runs.create(key, GraphRunRecord.started("h", 1));
        var view = runs.read(key).orElseThrow();
        assertThat(runs.compareAndSettle(key, view.version(),
                view.run().withState(RunState.COMPLETE, Optional.of(at)))).isTrue();
    }
}
