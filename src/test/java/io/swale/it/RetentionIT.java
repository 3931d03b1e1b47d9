package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.record.RunState;
import io.swale.run.GraphRuns;
import io.swale.run.RerunOutcome;
import io.swale.record.AdminRequest;
import io.swale.request.RequestId;
import io.swale.request.Requests;
import io.swale.run.RetentionPass;
import io.swale.run.RunReruns;
import io.swale.settings.SwaleProperties;
import io.swale.store.RunKey;
import io.swale.store.RunView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import io.swale.store.redis.RedisKeys;
import redis.clients.jedis.UnifiedJedis;

/** The retention pass of spec §12 on real Redis: expiry, stale entries, a fresh start at r0, a malformed record. */
class RetentionIT extends IntegrationSupport {
    private static final String GRAPH = "ret_graph";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Autowired
    private RetentionPass retention;

    @Autowired
    private io.swale.store.ExpiryStore expiry;

    @Autowired
    private io.swale.definition.DefinitionLoader loader;

    @Autowired
    private GraphRuns graphRuns;

    @Autowired
    private RunReruns reruns;

    @Autowired
    private UnifiedJedis redis;

    @Autowired
    private Requests requests;

    @Autowired
    private SwaleProperties props;

    @Autowired
    private net.javacrumbs.shedlock.core.LockingTaskExecutor locks;

    @Test
    void expiresSettledRunsDropsStaleEntriesAndStartsAgainAtRerunZero() {
        clock.set(T0);
        publish("""
                [graph]
                name = "ret_graph"
                partition = "daily"

                [[node]]
                name = "extract"
                produces = "ret_raw"
                operator = "noop"
                [node.params]

                [[node]]
                name = "load"
                produces = "ret_loaded"
                consumes = ["ret_raw"]
                operator = "shell"
                [node.params]
                command = "sleep 1; printf '{}'"
                """);
        assertThat(graphRuns.startRuns(GRAPH, List.of(Partition.of("20260101"), Partition.of("20260102")))).hasSize(2);
        awaitSettled(GRAPH, "20260101", RunState.COMPLETE);
        awaitSettled(GRAPH, "20260102", RunState.COMPLETE);
        assertThat(expiryScore("20260101")).isEqualTo((double) T0.toEpochMilli());

        // 20260102 is active again (a rerun runs for a second) when the pass comes: its entry is stale
        clock.set(T0.plus(Duration.ofDays(1)));
        assertThat(reruns.rerun(GRAPH, Partition.of("20260102"), "load")).isInstanceOf(RerunOutcome.Submitted.class);
        clock.set(T0.plus(Duration.ofDays(90)).plus(Duration.ofHours(1)));
        RetentionPass.Report report = retention.run();
        assertThat(report.runs()).isEqualTo(1);
        assertThat(report.stale()).isEqualTo(1);
        assertThat(report.error()).isEmpty();
        assertGone("20260101");
        assertThat(run(GRAPH, "20260102")).isPresent();

        GraphRunRecord resettled = awaitSettled(GRAPH, "20260102", RunState.COMPLETE);
        assertThat(expiryScore("20260102")).isEqualTo((double) resettled.settledAtMs().orElseThrow());

        // the expired partition starts again from scratch, run ids at r0
        GraphRuns.Started again = graphRuns.startRun(run(GRAPH, "20260102").orElseThrow().definition(),
                Partition.of("20260101"));
        assertThat(again.started()).isTrue();
        assertThat(again.submitted()).containsExactly("ret_graph-20260101-extract-r0");
        awaitSettled(GRAPH, "20260101", RunState.COMPLETE);
        RunView fresh = runs.read(new RunKey(GRAPH, Partition.of("20260101"))).orElseThrow();
        assertThat(fresh.instances().keySet())
                .containsExactlyInAnyOrder("ret_graph-20260101-extract-r0", "ret_graph-20260101-load-r0");
        assertThat(fresh.nodeRecords().values()).allMatch(r -> r.rerun() == 0);
    }

    /** Interfaces §2 lists retention among the further endpoints: a pass on demand, with its report. */
    @Test
    void aPassOnDemandRemovesWhatTheWindowLetsGoAndSaysSo() throws Throwable {
        clock.set("2026-03-01T00:00:00Z");
        publish(dailyGraph("ret_api", java.util.Optional.empty(), java.util.Optional.empty()));
        graphRuns.startRuns("ret_api", List.of(Partition.of("20260301")));
        awaitSettled("ret_api", "20260301", RunState.COMPLETE);

        clock.set("2026-05-01T00:00:00Z");
        Answer early = post("/api/v1/retention", "");
        assertThat(early.status()).isEqualTo(200);
        assertThat(run("ret_api", "20260301")).as("inside the window").isPresent();

        clock.set("2026-07-01T00:00:00Z");
        Answer pass = post("/api/v1/retention", "");
        assertThat(pass.status()).isEqualTo(200);
        assertThat(pass.body().get("runs").asInt()).isPositive();
        assertThat(pass.body().get("error").isNull()).isTrue();
        assertThat(pass.body().get("retention").asString()).isEqualTo(props.retentionPeriod().toString());
        assertThat(run("ret_api", "20260301")).isEmpty();

        // while a pass holds the lock (the periodic one, or another replica's), a request is told to try again
        var held = locks.executeWithLock(() -> post("/api/v1/retention", ""),
                new net.javacrumbs.shedlock.core.LockConfiguration(java.time.Instant.now(), "retention",
                        Duration.ofMinutes(1), Duration.ZERO));
        assertThat(held.wasExecuted()).isTrue();
        assertThat(held.getResult().status()).isEqualTo(503);
        assertThat(held.getResult().body().get("detail").asString()).contains("retention pass is running");
    }

    @Test
    void aMalformedRecordIsKeptAndReportedAndTheLaterEntriesStillExpire() {
        clock.set("2026-02-01T00:00:00Z");
        publish(dailyGraph("ret_bad", java.util.Optional.empty(), java.util.Optional.empty()));
        graphRuns.startRuns("ret_bad", List.of(Partition.of("20260201")));
        awaitSettled("ret_bad", "20260201", RunState.COMPLETE);
        long early = Instant.parse("2025-12-01T00:00:00Z").toEpochMilli();
        {
            var j = redis;
            j.zadd(KEYS.expiry(0), early, "run:ret_bad/no/such/target");
            j.zadd(KEYS.expiry(runKey("ret_bad", "20251101")), early + 1, "run:ret_bad/20251101");
            j.zadd(KEYS.expiry(runKey("ret_bad", "20251201")), early + 2, "run:ret_bad/20251201");
            j.set(KEYS.run(runKey("ret_bad", "20251201")), "not json");
        }
        clock.set("2026-06-01T00:00:00Z");
        RetentionPass.Report report = retention.run();
        assertThat(report.error()).hasValueSatisfying(e -> assertThat(e).contains("ret_bad/20251201"));
        // the entries after the bad one are not held back by it
        assertThat(report.runs()).isGreaterThanOrEqualTo(1);
        assertThat(run("ret_bad", "20260201")).isEmpty();
        {
            var j = redis;
            assertThat(j.zscore(KEYS.expiry(0), "run:ret_bad/no/such/target")).isNull();
            assertThat(j.zscore(KEYS.expiry(runKey("ret_bad", "20251101")), "run:ret_bad/20251101")).isNull();
            assertThat(j.zscore(KEYS.expiry(runKey("ret_bad", "20251201")), "run:ret_bad/20251201")).isNotNull();
            assertThat(j.get(KEYS.run(runKey("ret_bad", "20251201")))).isEqualTo("not json");
            j.del(KEYS.run(runKey("ret_bad", "20251201")));
        }
        RetentionPass.Report mended = retention.run();
        assertThat(mended.error()).isEmpty();
        {
            var j = redis;
            assertThat(j.zscore(KEYS.expiry(runKey("ret_bad", "20251201")), "run:ret_bad/20251201")).isNull();
        }
    }

    /**
     * The definition store not answering is the pass's error, reported, not a definition that does not load, kept
     * in silence (spec §12: a store failure is a failure). The run is kept for the next pass either way.
     */
    @Test
    void aStoreFailureWhileReadingADefinitionIsReportedAndTheRunKept() {
        clock.set("2026-03-01T00:00:00Z");
        publish(dailyGraph("ret_down", java.util.Optional.empty(), java.util.Optional.empty()));
        graphRuns.startRuns("ret_down", List.of(Partition.of("20260301")));
        awaitSettled("ret_down", "20260301", RunState.COMPLETE);
        io.swale.store.DefinitionStore down = (io.swale.store.DefinitionStore) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {io.swale.store.DefinitionStore.class}, (proxy, method, args) -> {
                    throw new redis.clients.jedis.exceptions.JedisConnectionException("Connection refused");
                });
        RetentionPass pass = new RetentionPass(expiry, new io.swale.run.DefinitionCatalog(down, loader), clock,
                props.retentionPeriod());
        clock.set("2026-09-01T00:00:00Z");

        RetentionPass.Report report = pass.run();

        assertThat(report.error()).hasValueSatisfying(e -> assertThat(e).contains("ret_down/20260301")
                .contains("Connection refused"));
        assertThat(run("ret_down", "20260301")).isPresent();
    }

    /**
     * A pass that deleted a run and stopped before taking it out of its graph's run index (a crash) left it listed:
     * the next pass, finding its entry stale, takes it out of the index too. Was: the entry was dropped and the
     * index kept the partition, and the graph with it, for good.
     */
    @Test
    void aRunDeletedButStillListedIsUnlistedWithItsStaleEntry() {
        clock.set("2026-04-01T00:00:00Z");
        long early = Instant.parse("2025-12-01T00:00:00Z").toEpochMilli();
        RunKey gone = runKey("ret_crash", "20251101");
        redis.zadd(KEYS.runsOfGraph("ret_crash"), 0, "20251101");
        redis.sadd(KEYS.graphsWithRuns(), "ret_crash");
        redis.zadd(KEYS.expiry(gone), early, "run:ret_crash/20251101");

        RetentionPass.Report report = retention.run();

        assertThat(report.stale()).isGreaterThanOrEqualTo(1);
        assertThat(redis.zscore(KEYS.expiry(gone), "run:ret_crash/20251101")).isNull();
        assertThat(redis.zscore(KEYS.runsOfGraph("ret_crash"), "20251101")).isNull();
        assertThat(redis.sismember(KEYS.graphsWithRuns(), "ret_crash")).isFalse();
    }

    /** Spec §12, §14 #26: a request record lives the retention window, by its TTL and by the pass. */
    @Test
    void requestRecordsExpireWithTheRetentionWindow() {
        Instant handled = Instant.parse("2026-03-01T00:00:00Z");
        clock.set(handled);
        String kept = "ret-req-" + System.nanoTime();
        String ttlGone = kept + "-ttl";
        AdminRequest cancel = new AdminRequest.Cancel("ret_no_graph", Partition.of("p"));
        for (String id : List.of(kept, ttlGone)) {
            requests.handle(java.util.Optional.of(new RequestId(id)), cancel);
        }
        RedisKeys keys = new RedisKeys(props.redis().keyPrefix());
        String keptKey = keys.request(RedisKeys.shardOf(kept, cancel), kept);
        String keptExpiry = keys.expiry(RedisKeys.shardOf(kept, cancel));
        String goneExpiry = keys.expiry(RedisKeys.shardOf(ttlGone, cancel));
        long retentionMs = props.retentionPeriod().toMillis();
        String prefix = props.redis().keyPrefix();
        {
            var j = redis;
            assertThat(j.pttl(keptKey)).as("a TTL of twice the retention window, set as it was written: the pass "
                    + "removes it first").isBetween(2 * retentionMs - 60_000, 2 * retentionMs);
            assertThat(j.zscore(keptExpiry, "req:" + kept)).isEqualTo((double) handled.toEpochMilli());
            // as if its TTL had run out: only the expiry entry is left
            j.del(keys.request(RedisKeys.shardOf(ttlGone, cancel), ttlGone));
        }
        assertThat(get("/api/v1/requests/" + kept).status()).isEqualTo(200);

        clock.set(handled.plus(props.retentionPeriod()).minus(Duration.ofMinutes(1)));
        retention.run();
        assertThat(get("/api/v1/requests/" + kept).status()).as("kept within the window").isEqualTo(200);

        clock.set(handled.plus(props.retentionPeriod()).plus(Duration.ofMinutes(1)));
        RetentionPass.Report report = retention.run();
        assertThat(report.error()).isEmpty();
        assertThat(report.requests()).isGreaterThanOrEqualTo(1);
        assertThat(report.stale()).isGreaterThanOrEqualTo(1);
        {
            var j = redis;
            assertThat(j.exists(keptKey)).isFalse();
            assertThat(j.zscore(keptExpiry, "req:" + kept)).isNull();
            assertThat(j.zscore(goneExpiry, "req:" + ttlGone)).as("the index is trimmed too").isNull();
        }
        Answer unknown = get("/api/v1/requests/" + kept);
        assertThat(unknown.status()).as("an expired request id is unknown").isEqualTo(404);
    }

    private static final RedisKeys KEYS = new RedisKeys("swale");

    private static RunKey runKey(String graph, String partition) {
        return new RunKey(graph, Partition.of(partition));
    }

    private Double expiryScore(String partition) {
        {
            var j = redis;
            return j.zscore(KEYS.expiry(runKey(GRAPH, partition)), "run:" + GRAPH + "/" + partition);
        }
    }

    private void assertGone(String partition) {
        RunKey k = runKey(GRAPH, partition);
        {
            var j = redis;
            for (String key : List.of(KEYS.run(k), KEYS.nodeRecords(k), KEYS.instances(k), KEYS.inputs(k))) {
                assertThat(j.exists(key)).as(key).isFalse();
            }
            assertThat(j.zscore(KEYS.runsOfGraph(GRAPH), partition)).isNull();
            assertThat(j.zscore(KEYS.activeRuns(k), GRAPH + "/" + partition)).isNull();
            assertThat(j.zscore(KEYS.expiry(k), "run:" + GRAPH + "/" + partition)).isNull();
        }
    }
}
