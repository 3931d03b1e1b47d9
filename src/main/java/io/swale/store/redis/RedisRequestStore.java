package io.swale.store.redis;

import io.swale.record.AdminRequest;
import io.swale.record.RecordCodec;
import io.swale.record.RequestJson;
import io.swale.record.RequestRecord;
import io.swale.store.RequestStore;
import io.swale.store.RunKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.UnifiedJedis;

/**
 * Request records as strings; the record and its expiry entry ({@code req:<id>}) are one Lua call, in the
 * record's shard ({@link RedisKeys#shardOf(RequestRecord)}), which a lookup by id learns from the id's
 * reservation. A record also lives at most twice the retention window (a Redis TTL set as it is written, spec §12,
 * §14 #26), so requests never fill Redis even while the retention pass, which removes it at the window, is
 * stopped. Before any record, an id is reserved for its request in the id's own shard ({@link RedisKeys#requestReservation}): records of one id may sit in different
 * shards (a rerun's in its run's), so only the reservation keeps one id to one request.
 */
public final class RedisRequestStore implements RequestStore {
    private static final Duration LONGEST_TTL = Duration.ofDays(365L * 100);
    private static final long RESERVATION_MARGIN_MS = 60_000;

    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final RedisScripts scripts = new RedisScripts();
    private final long ttlMs;

    /** Records without a TTL: only the retention pass removes them. */
    public RedisRequestStore(UnifiedJedis redis, String prefix) {
        this(redis, prefix, Duration.ZERO);
    }

    public RedisRequestStore(UnifiedJedis redis, String prefix, Duration retention) {
        this.redis = redis;
        this.keys = new RedisKeys(prefix);
        this.ttlMs = ttlMs(retention);
    }

    /**
     * The TTL of a request record, ms: twice the window, a safety net should no retention pass run, which leaves
     * the record to the pass (spec §12: it counts the requests it removes, by the window of the day); 0 (none) for
     * a window too long to have one.
     */
    static long ttlMs(Duration retention) {
        return retention.isNegative() || retention.compareTo(LONGEST_TTL.dividedBy(2)) > 0 ? 0
                : retention.multipliedBy(2).toMillis();
    }

    @Override
    public Optional<RequestRecord> get(String id) {
        return RedisRequestStore.find(redis, keys, id).map(found -> RequestCodec.decode(id, found.raw()));
    }

    /** A stored request record and the shard it is in. */
    record Found(int shard, String raw) {}

    /**
     * The record of a request id: its reservation names the request, hence the record's shard. A record is only
     * written under its reservation, which outlives it (a longer TTL, and retention removes the record first).
     */
    static Optional<Found> find(UnifiedJedis redis, RedisKeys keys, String id) {
        String held = redis.get(keys.requestReservation(id));
        if (held == null) {
            return Optional.empty();
        }
        AdminRequest request = RequestCodec.decodeReservation(id, held);
        int shard = RedisKeys.shardOf(id, request);
        Optional<Found> found = Optional.ofNullable(redis.get(keys.request(shard, id))).map(raw -> new Found(shard, raw));
        if (found.isEmpty() && request instanceof AdminRequest.Cancel) {
            // a cancel's record was written in the id's own shard before it committed with its cancel
            int own = RedisKeys.ownShardOf(id);
            return Optional.ofNullable(redis.get(keys.request(own, id))).map(raw -> new Found(own, raw));
        }
        return found;
    }

    @Override
    public boolean reserve(String id, AdminRequest request) {
        return reserve(redis, keys, scripts, id, request, ttlMs);
    }

    /**
     * Holds the id of a request record that commits with a write of its own run (a rerun's or a cancel's: its record
     * is in the run's shard, so in that write's slot; other requests' are in the id's): refused when the request is
     * not a rerun or cancel of {@code key} or another request holds the id.
     */
    static void reserveOfRun(UnifiedJedis redis, RedisKeys keys, RedisScripts scripts, RunKey key,
            RequestRecord r, long ttlMs, String committedWith) {
        RunKey of = switch (r.request()) {
            case AdminRequest.Rerun rerun -> new RunKey(rerun.graph(), rerun.partition());
            case AdminRequest.Cancel cancel -> new RunKey(cancel.graph(), cancel.partition());
            default -> null;
        };
        if (!key.equals(of)) {
            throw new IllegalArgumentException("request " + r.id() + " is not a rerun or cancel of run " + key.id()
                    + ": only those commit their request record with its " + committedWith);
        }
        if (!reserve(redis, keys, scripts, r.id(), r.request(), ttlMs)) {
            throw new IllegalStateException("request id `" + r.id() + "` is held by a different request");
        }
    }

    @Override
    public Hold hold(String id, AdminRequest request, Duration maxHandling) {
        String token = java.util.UUID.randomUUID().toString();
        Object r = scripts.reserve.call(redis, List.of(keys.requestReservation(id), keys.requestHandling(id)),
                List.of(RecordCodec.text(RequestJson.request(request)), Long.toString(reservationTtl(ttlMs)), token,
                        Long.toString(Math.max(1, maxHandling.toMillis()))));
        long code = r instanceof Long n ? n : 0;
        return code == 1 ? new Hold.Held(token) : code == 2 ? new Hold.Busy() : new Hold.Taken();
    }

    @Override
    public boolean renew(String id, Hold.Held held, Duration maxHandling) {
        Object r = scripts.expireIfEqual.call(redis, List.of(keys.requestHandling(id)),
                List.of(held.token(), Long.toString(Math.max(1, maxHandling.toMillis()))));
        return r instanceof Long n && n == 1L;
    }

    @Override
    public void release(String id, Hold.Held held) {
        scripts.deleteIfEqual.call(redis, List.of(keys.requestHandling(id)), List.of(held.token()));
    }

    /** A minute past the record's own TTL: a lookup finds the record through its reservation. */
    private static long reservationTtl(long ttlMs) {
        return ttlMs == 0 ? 0 : ttlMs + RESERVATION_MARGIN_MS;
    }

    /** Holds {@code id} for {@code request} (reserve.lua): false when another request holds it. */
    static boolean reserve(UnifiedJedis redis, RedisKeys keys, RedisScripts scripts, String id, AdminRequest request,
            long ttlMs) {
        Object r = scripts.reserve.call(redis, List.of(keys.requestReservation(id)),
                List.of(RecordCodec.text(RequestJson.request(request)), Long.toString(reservationTtl(ttlMs))));
        return r instanceof Long n && n == 1L;
    }

    /** A request record's arguments to the scripts that write one: its json, handled at, expiry member, TTL ms. */
    static List<String> recordArgs(RequestRecord r, long ttlMs) {
        return List.of(RequestCodec.encode(r), Long.toString(r.handledAtMs()), RedisKeys.requestExpiryMember(r.id()),
                Long.toString(ttlMs));
    }

    @Override
    public boolean putIfAbsent(RequestRecord record) {
        String id = record.id();
        if (!reserve(id, record.request())) {
            return false;
        }
        int shard = RedisKeys.shardOf(record);
        Object r = scripts.request.call(redis, List.of(keys.request(shard, id), keys.expiry(shard)),
                recordArgs(record, ttlMs));
        return r instanceof Long n && n == 1L;
    }
}
