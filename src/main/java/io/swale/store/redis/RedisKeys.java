package io.swale.store.redis;

import io.swale.record.AdminRequest;
import io.swale.record.RequestRecord;
import io.swale.store.RunKey;
import java.nio.charset.StandardCharsets;
import java.util.stream.IntStream;
import java.util.zip.CRC32;

/**
 * Key spelling (docs/operations.md, "Redis keys"). Every atomic unit (a Lua script) touches keys of one hash slot
 * (spec §14 #25): a run's keys and the indexes a script writes with them (active runs, expiry, delayed retries,
 * request records of reruns) all carry the hash tag of the run's shard, {@code {<prefix>:s<n>}}, with
 * {@code n = crc32(run id) mod SHARDS}. The periodic jobs walk the {@link #SHARDS} shards.
 */
public final class RedisKeys {
    /**
     * The number of shards. Fixed: it decides where every run's keys live, so a change would lose every stored
     * run. Written once to {@link #layout()} and checked at start ({@link RedisLayout}).
     */
    public static final int SHARDS = 64;

    private final String prefix;

    public RedisKeys(String prefix) {
        this.prefix = prefix;
    }

    /** The shard of a run: fixed by its id. */
    public static int shardOf(RunKey key) {
        return shardOf(key.id());
    }

    static int shardOf(String text) {
        CRC32 crc = new CRC32();
        crc.update(text.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % SHARDS);
    }

    static IntStream shards() {
        return IntStream.range(0, SHARDS);
    }

    private String tag(int shard) {
        return "{" + prefix + ":s" + shard + "}";
    }

    /** The layout record: the shard count this prefix's data was written with. */
    public String layout() {
        return prefix + ":layout";
    }

    public String definition(String hash) {
        return prefix + ":def:" + hash;
    }

    public String currentPointers() {
        return prefix + ":current";
    }

    public String graphRecords() {
        return prefix + ":graphs";
    }

    /** A capped list of a graph's publishes, adoptions and refusals, newest first. */
    public String definitionHistory(String graph) {
        return prefix + ":defhist:" + graph;
    }

    public String refusals() {
        return prefix + ":refusals";
    }

    /** The partitions of a graph; one slot with {@link #graphsWithRuns()}, which a script updates with it. */
    public String runsOfGraph(String graph) {
        return prefix + ":runs:{" + prefix + ":idx}:" + graph;
    }

    public String graphsWithRuns() {
        return prefix + ":rungraphs:{" + prefix + ":idx}";
    }

    public String activeRuns(int shard) {
        return prefix + ":active:" + tag(shard);
    }

    public String activeRuns(RunKey key) {
        return activeRuns(shardOf(key));
    }

    /** The last repair failure of each run, by run id ({@code graph/partition}); never written by a script. */
    public String repairErrors() {
        return prefix + ":repairerr";
    }

    public String delayed(int shard) {
        return prefix + ":delayed:" + tag(shard);
    }

    public String delayed(RunKey key) {
        return delayed(shardOf(key));
    }

    /** Held leases by the time they end, {@code <run>|<run id>} → lease end ms: what the reaper reads. */
    public String leases(int shard) {
        return prefix + ":leases:" + tag(shard);
    }

    public String leases(RunKey key) {
        return leases(shardOf(key));
    }

    public String expiry(int shard) {
        return prefix + ":expiry:" + tag(shard);
    }

    public String expiry(RunKey key) {
        return expiry(shardOf(key));
    }

    /** Watermark per schedule (graph), never expired. */
    public String watermarks() {
        return prefix + ":watermarks";
    }

    /**
     * The shard of a request record: a rerun's is its run's (its record commits in a script of its run), any
     * other request's follows from its id. The same request under the same id always lands in one shard.
     */
    static int shardOf(RequestRecord record) {
        return shardOf(record.id(), record.request());
    }

    public static int shardOf(String requestId, AdminRequest request) {
        return switch (request) {
            case AdminRequest.Rerun r -> shardOf(new RunKey(r.graph(), r.partition()));
            case AdminRequest.Cancel c -> shardOf(new RunKey(c.graph(), c.partition()));
            default -> ownShardOf(requestId);
        };
    }

    /** The shard of a request record kept apart from any run's: a start's, and a cancel's as earlier builds wrote it. */
    static int ownShardOf(String requestId) {
        return shardOf("req:" + requestId);
    }

    public String request(int shard, String id) {
        return prefix + ":req:" + tag(shard) + ":" + id;
    }

    /**
     * The reservation of a request id: which request the id serves, in the id's own shard whatever the request,
     * so two different requests can never both hold one id (their records may live in different shards).
     */
    public String requestReservation(String id) {
        return prefix + ":reqid:" + tag(shardOf("req:" + id)) + ":" + id;
    }

    /** Which call handles a request id now, beside its reservation (one slot): see {@code reserve.lua}. */
    public String requestHandling(String id) {
        return prefix + ":reqh:" + tag(shardOf("req:" + id)) + ":" + id;
    }

    /** The expiry entry of a request record. */
    static String requestExpiryMember(String id) {
        return "req:" + id;
    }

    public String run(RunKey key) {
        return prefix + ":run:" + tag(shardOf(key)) + ":" + key.id();
    }

    public String nodeRecords(RunKey key) {
        return prefix + ":nodes:" + tag(shardOf(key)) + ":" + key.id();
    }

    public String instances(RunKey key) {
        return prefix + ":ti:" + tag(shardOf(key)) + ":" + key.id();
    }

    public String attempts(RunKey key) {
        return prefix + ":att:" + tag(shardOf(key)) + ":" + key.id();
    }

    /** The declared growths of a run, field = declaring node (docs/dynamic-graphs.md §8.3). */
    public String growths(RunKey key) {
        return prefix + ":grow:" + tag(shardOf(key)) + ":" + key.id();
    }

    public String inputs(RunKey key) {
        return prefix + ":in:" + tag(shardOf(key)) + ":" + key.id();
    }
}
