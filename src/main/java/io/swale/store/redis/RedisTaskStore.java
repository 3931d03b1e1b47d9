package io.swale.store.redis;

import io.swale.record.NodeRecord;
import io.swale.record.RecordCodec;
import io.swale.store.AttemptRecord;
import io.swale.store.PendingInstance;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.TaskInput;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.store.UnavailableReplies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.IntFunction;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.resps.Tuple;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** Task-instance transitions as Lua scripts over the keys of one graph run. */
public final class RedisTaskStore implements TaskStore {
    /** A still-pending instance is dispatched again at most every 16 stale intervals, once backed off. */
    static final long REDISPATCH_BACKOFF_CAP = 16;
    private final ScriptCalls calls;
    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final RedisScripts scripts = new RedisScripts();

    private final long requestTtlMs;
    private final RedisSubmissions submissions;

    /** Request records written with a submission get no TTL: only the retention pass removes them. */
    public RedisTaskStore(UnifiedJedis redis, String prefix) {
        this(redis, prefix, java.time.Duration.ZERO, Durability.NONE);
    }

    /** Request records written with a submission expire after {@code retention}, as {@link RedisRequestStore}'s. */
    public RedisTaskStore(UnifiedJedis redis, String prefix, java.time.Duration retention, Durability durability) {
        this.redis = redis;
        this.calls = new ScriptCalls(redis, durability);
        this.keys = new RedisKeys(prefix);
        this.requestTtlMs = RedisRequestStore.ttlMs(retention);
        this.submissions = new RedisSubmissions(redis, calls, keys, scripts, requestTtlMs);
    }

    @Override
    public Submit submit(RunKey key, String runId, PendingInstance instance, TaskInput input,
            Optional<RequestWrite> request) {
        return submissions.submit(key, runId, instance, input, request);
    }

    @Override
    public boolean compareAndPutRun(RunKey key, io.swale.store.RunVersion expected, io.swale.record.GraphRunRecord next,
            RequestWrite request) {
        var r = request.record();
        RedisRequestStore.reserveOfRun(redis, keys, scripts, key, r, requestTtlMs, "run record");
        boolean active = next.state() == io.swale.record.RunState.ACTIVE;
        // every key is in the run's shard (RedisKeys.shardOf of a rerun is its run's): one script, one slot
        List<String> args = new ArrayList<>(List.of(expected.value(), RunRecordCodec.encode(next), active ? "1" : "0",
                key.id(), Long.toString(System.currentTimeMillis())));
        args.addAll(RedisRequestStore.recordArgs(r, requestTtlMs));
        Object out = calls.durable(scripts.putRun, List.of(keys.run(key), keys.activeRuns(key),
                keys.request(RedisKeys.shardOf(r), r.id()), keys.expiry(key)), args);
        return out instanceof Long n && n == 1L;
    }

    @Override
    public boolean compareAndSettleRun(RunKey key, io.swale.store.RunVersion expected,
            io.swale.record.GraphRunRecord settled, RequestWrite request) {
        var r = request.record();
        RedisRequestStore.reserveOfRun(redis, keys, scripts, key, r, requestTtlMs, "settled run record");
        // settle.lua with a request record and no instance to check; every key in the run's slot
        List<String> k = new ArrayList<>(RedisRunStore.settleKeys(keys, key));
        k.add(keys.request(RedisKeys.shardOf(r), r.id()));
        Object out = calls.durable(scripts.settle, k, RedisRunStore.settleArgs(expected, settled, key,
                RedisRequestStore.recordArgs(r, requestTtlMs), List.of()));
        return out instanceof Long n && n == 1L;
    }

    @Override
    public List<Submit> submitAll(RunKey key, List<SubmitRequest> requests) {
        return requests.size() < 2 ? TaskStore.super.submitAll(key, requests) : submissions.pipelined(key, requests);
    }

    @Override
    public List<RunSubmitted> submitEach(List<RunSubmits> runs) {
        return runs.stream().mapToInt(r -> r.requests().size()).sum() < 2 ? TaskStore.super.submitEach(runs)
                : submissions.pipelined(runs);
    }

    @Override
    public List<ItemSubmit> submitItems(RunKey key, String itemPrefix, int maxActive, List<SubmitRequest> requests) {
        return submissions.items(key, itemPrefix, maxActive, requests);
    }

    @Override
    public Derive derive(RunKey key, io.swale.store.RunVersion read, RecordField field, NodeRecord record) {
        String r = (String) calls.durable(scripts.derive, List.of(keys.run(key), keys.nodeRecords(key)),
                List.of(read.value(), field.key(), NodeRecordCodec.encode(record), Long.toString(record.rerun())));
        return switch (r) {
            case "written" -> Derive.WRITTEN;
            case "kept" -> Derive.KEPT;
            case "changed" -> Derive.CHANGED;
            default -> Derive.INACTIVE;
        };
    }

    @Override
    public Claim claim(RunKey key, String runId, long leaseMs, String worker, String claimId) {
        return claimOutcome((List<?>) calls.durable(scripts.claim, claimKeys(key),
                List.of(runId, Long.toString(leaseMs), worker, member(key, runId), claimId)));
    }

    @Override
    public List<Claim> claimAll(List<ClaimRequest> requests, long leaseMs, String worker) {
        if (requests.size() < 2) {
            return TaskStore.super.claimAll(requests, leaseMs, worker);
        }
        String lease = Long.toString(leaseMs);
        List<JedisDataException> unavailable = new ArrayList<>();
        List<Claim> claims = calls.pipelined(scripts.claim, requests,
                r -> claimKeys(r.key()), r -> List.of(r.runId(), lease, worker, member(r.key(), r.runId()), r.claimId()),
                r -> claimOutcome((List<?>) r),
                q -> claim(q.key(), q.runId(), leaseMs, worker, q.claimId()),
                // one instance the script cannot read must not fail the poll whose other claims are committed
                e -> {
                    if (UnavailableReplies.matches(e.getMessage())) {
                        unavailable.add(e);
                    }
                    return new Claim.Refused("error: " + e.getMessage());
                }, true);
        // a server that could not serve (loading, busy, read-only) refused them all: thrown, as a single claim's
        // error is, so the dispatches are retried rather than committed unclaimed
        if (!unavailable.isEmpty() && claims.stream().noneMatch(Claim.Claimed.class::isInstance)) {
            throw unavailable.getFirst();
        }
        return claims;
    }

    private static Claim claimOutcome(List<?> r) {
        if (!"claimed".equals(r.get(0))) {
            return new Claim.Refused((String) r.get(0));
        }
        Optional<TaskInput> input = TaskInputCodec.decode((String) r.get(4));
        Optional<JsonNode> stepState = Optional.empty();
        String storedState = (String) r.get(5);
        if (!storedState.isEmpty()) {
            try {
                stepState = Optional.of(RecordCodec.JSON.readTree(storedState));
            } catch (JacksonException e) {
                // claims of a whole poll decode together: an unreadable state fails its own attempt, not the poll
                input = Optional.empty();
            }
        }
        return new Claim.Claimed(Long.parseLong((String) r.get(1)), Long.parseLong((String) r.get(2)),
                Long.parseLong((String) r.get(7)), Long.parseLong((String) r.get(3)), input, stepState,
                Long.parseLong((String) r.get(6)),
                r.size() > 8 ? Long.parseLong((String) r.get(8)) : Long.parseLong((String) r.get(6)));
    }

    @Override
    public Heartbeat heartbeat(RunKey key, String runId, long token, long leaseMs) {
        String r = (String) call(scripts.heartbeat, List.of(keys.instances(key), keys.leases(key)),
                List.of(runId, Long.toString(token), Long.toString(leaseMs), member(key, runId)));
        return switch (r) {
            case "running" -> Heartbeat.RUNNING;
            case "cancelling" -> Heartbeat.CANCELLING;
            default -> Heartbeat.LOST;
        };
    }

    /** One finish: its instance, the field of its node record, the claim's token and the record. */
    private record FinishCall(RunKey key, RecordField field, long token, NodeRecord record, Optional<String> growth,
            boolean owesDeadLetter) {}

    // finishes of attempts that end together (a worker's slots, the reaper) share a round trip
    private final GroupCommit<FinishCall, Finish> finishes = new GroupCommit<>(this::finishAlone, this::finishTogether);

    @Override
    public Finish finish(RunKey key, RecordField field, long token, NodeRecord record) {
        return finish(key, field, token, record, Optional.empty());
    }

    /** The node's growth (field = node name) is written or removed with its record, in the run's slot. */
    @Override
    public Finish finish(RunKey key, RecordField field, long token, NodeRecord record, Optional<String> growth) {
        return finishes.call(new FinishCall(key, field, token, record, growth, false));
    }

    @Override
    public Finish finishDeadLettered(RunKey key, RecordField field, long token, NodeRecord record) {
        return finishes.call(new FinishCall(key, field, token, record, Optional.empty(), true));
    }

    @Override
    public OwedDeadLetter takeOwedDeadLetter(RunKey key, String runId, long waitMs, long limitMs) {
        Object r = calls.durable(scripts.takeDeadLetter, List.of(keys.instances(key)),
                List.of(runId, Long.toString(waitMs), Long.toString(limitMs)));
        return switch ((String) r) {
            case "send" -> OwedDeadLetter.SEND;
            case "wait" -> OwedDeadLetter.WAIT;
            case "expired" -> OwedDeadLetter.EXPIRED;
            default -> OwedDeadLetter.NONE;
        };
    }

    @Override
    public void deadLetterSent(RunKey key, String runId) {
        calls.durable(scripts.deadLettered, List.of(keys.instances(key), keys.run(key), keys.activeRuns(key)),
                List.of(runId, key.id()));
    }

    private Finish finishAlone(FinishCall c) {
        return finishOutcome(calls.durable(scripts.finish, finishKeys(c), finishArgs(c)));
    }

    private List<java.util.function.Supplier<Finish>> finishTogether(List<FinishCall> batch) {
        return calls.pipelined(scripts.finish, batch, this::finishKeys, RedisTaskStore::finishArgs, r -> {
            Finish f = finishOutcome(r);
            return () -> f;
        }, c -> {
            try {
                Finish f = finishAlone(c);
                return () -> f;
            } catch (RuntimeException e) {
                return () -> {
                    throw e;
                };
            }
        }, e -> () -> {
            // this finish's own script failed, as it would have alone; the others of its batch stand
            throw e;
        }, true);
    }

    private List<String> finishKeys(FinishCall c) {
        return List.of(keys.instances(c.key()), keys.nodeRecords(c.key()), keys.attempts(c.key()), keys.run(c.key()),
                keys.growths(c.key()), keys.leases(c.key()));
    }

    private static List<String> finishArgs(FinishCall c) {
        NodeRecord record = c.record();
        return List.of(record.runId(), Long.toString(c.token()), c.field().key(), NodeRecordCodec.encode(record),
                record.status().wireName(), Long.toString(record.rerun()), record.error().orElse(""),
                c.field().node(), c.growth().orElse(""), member(c.key(), record.runId()),
                c.owesDeadLetter() ? "1" : "");
    }

    private static Finish finishOutcome(Object r) {
        return switch ((String) r) {
            case "ok" -> Finish.OK;
            case "settled" -> Finish.SETTLED;
            case "cancelling" -> Finish.CANCELLING;
            case "unknown" -> Finish.UNKNOWN;
            default -> Finish.LOST;
        };
    }

    @Override
    public Park park(RunKey key, String runId, long token, long delayMs, String error, boolean nextStep,
            Optional<JsonNode> stepState) {
        List<?> r = (List<?>) calls.durable(scripts.retry,
                List.of(keys.instances(key), keys.inputs(key), keys.attempts(key), keys.leases(key), keys.delayed(key)),
                List.of(runId, Long.toString(token), Long.toString(delayMs), error, nextStep ? "1" : "0",
                        stepState.map(RecordCodec::text).orElse(""), member(key, runId)));
        return switch ((String) r.get(0)) {
            case "waiting" -> new Park.Waiting(Long.parseLong((String) r.get(1)));
            case "cancelling" -> new Park.Cancelling();
            default -> new Park.Lost();
        };
    }

    @Override
    public Optional<TaskInstance> releaseDue(RunKey key, String runId) {
        return releaseDueOrEarly(key, runId) instanceof DueRelease.Released r ? Optional.of(r.instance())
                : Optional.empty();
    }

    @Override
    public DueRelease releaseDueOrEarly(RunKey key, String runId) {
        List<?> r = (List<?>) call(scripts.release, List.of(keys.instances(key)), List.of(runId));
        return switch ((String) r.get(0)) {
            case "released" -> new DueRelease.Released(InstanceCodec.decode(runId, (String) r.get(1)));
            case "early" -> new DueRelease.Early();
            default -> new DueRelease.NotWaiting();
        };
    }

    @Override
    public boolean redispatchIfStale(RunKey key, String runId, long staleMs) {
        long longest = staleMs > Long.MAX_VALUE / REDISPATCH_BACKOFF_CAP ? Long.MAX_VALUE : staleMs * REDISPATCH_BACKOFF_CAP;
        return redispatch(key, List.of(runId, Long.toString(staleMs), Long.toString(longest)));
    }

    @Override
    public boolean redispatchAfterFault(RunKey key, String runId, long staleMs) {
        return redispatch(key, List.of(runId, Long.toString(staleMs), Long.toString(staleMs), "1"));
    }

    private boolean redispatch(RunKey key, List<String> args) {
        return call(scripts.redispatch, List.of(keys.instances(key)), args) instanceof Long n && n == 1L;
    }

    @Override
    public Reap reap(RunKey key, String runId) {
        List<?> r = (List<?>) call(scripts.reap, List.of(keys.instances(key), keys.attempts(key), keys.leases(key)),
                List.of(runId, member(key, runId)));
        return switch ((String) r.get(0)) {
            case "redispatch" -> new Reap.Redispatch();
            case "cancel" -> new Reap.Cancel(Long.parseLong((String) r.get(1)));
            case "exhausted" -> new Reap.Exhausted(Long.parseLong((String) r.get(1)));
            default -> new Reap.None();
        };
    }

    @Override
    public GiveBack giveBack(RunKey key, String runId, long token, String reason) {
        List<?> r = (List<?>) call(scripts.giveBack, List.of(keys.instances(key), keys.attempts(key), keys.leases(key)),
                List.of(runId, Long.toString(token), reason, member(key, runId)));
        return switch ((String) r.get(0)) {
            case "released" -> GiveBack.RELEASED;
            case "cancelling" -> GiveBack.CANCELLING;
            default -> GiveBack.LOST;
        };
    }

    @Override
    public List<AttemptRecord> history(RunKey key, String runId) {
        return AttemptCodec.parseAll(redis.hget(keys.attempts(key), runId));
    }

    @Override
    public Map<String, List<AttemptRecord>> histories(RunKey key) {
        Map<String, List<AttemptRecord>> out = new TreeMap<>();
        redis.hgetAll(keys.attempts(key)).forEach((runId, json) -> out.put(runId, AttemptCodec.parseAll(json)));
        return out;
    }

    @Override
    public Cancel cancel(RunKey key, RecordField field, NodeRecord cancelled) {
        return cancelled((String) call(scripts.cancel, List.of(keys.instances(key), keys.nodeRecords(key)),
                cancelArgs(field, cancelled)));
    }

    @Override
    public Cancel cancelOfCancelledRun(RunKey key, RecordField field, NodeRecord cancelled) {
        List<String> args = new ArrayList<>(cancelArgs(field, cancelled));
        args.add("1");
        return cancelled((String) call(scripts.cancel,
                List.of(keys.instances(key), keys.nodeRecords(key), keys.run(key)), args));
    }

    private static List<String> cancelArgs(RecordField field, NodeRecord cancelled) {
        return List.of(cancelled.runId(), field.key(), NodeRecordCodec.encode(cancelled),
                Long.toString(cancelled.rerun()), cancelled.error().orElse(""));
    }

    private static Cancel cancelled(String r) {
        return switch (r) {
            case "cancelled" -> Cancel.CANCELLED;
            case "cancelling" -> Cancel.CANCELLING;
            case "asked" -> Cancel.ALREADY_CANCELLING;
            default -> Cancel.INACTIVE;
        };
    }

    @Override
    public void scheduleDelayed(RunKey key, String runId, long dueMs) {
        redis.zadd(keys.delayed(key), dueMs, member(key, runId));
    }

    /** The earliest due entries of every shard, merged: at most {@code limit}, earliest first. */
    @Override
    public List<Delayed> dueDelayed(int limit) {
        List<Delayed> due = new ArrayList<>();
        entriesUpTo(keys::delayed, serverTimeMs(), limit, (key, runId, at) -> due.add(new Delayed(key, runId, at)));
        due.sort(java.util.Comparator.comparingLong(Delayed::dueMs));
        return due.size() > limit ? List.copyOf(due.subList(0, limit)) : due;
    }

    @Override
    public boolean removeDelayed(RunKey key, String runId, long dueMs) {
        return removeIfScore(keys.delayed(key), member(key, runId), dueMs);
    }

    @Override
    public List<ExpiredLease> expiredLeases(long nowMs, int limitPerShard) {
        List<ExpiredLease> expired = new ArrayList<>();
        entriesUpTo(keys::leases, nowMs, limitPerShard, (key, runId, at) -> expired.add(new ExpiredLease(key, runId, at)));
        return expired;
    }

    @Override
    public boolean forgetLease(ExpiredLease lease) {
        return removeIfScore(keys.leases(lease.key()), member(lease.key(), lease.runId()), lease.leaseUntilMs());
    }

    private interface Entry {
        void accept(RunKey key, String runId, long score);
    }

    /**
     * The entries {@code <run>|<run id>} of every shard's sorted set scored up to {@code maxScore}, at most
     * {@code limit} a shard, in one round trip; an entry that names no run is removed.
     */
    private void entriesUpTo(IntFunction<String> setOfShard, long maxScore, int limit, Entry into) {
        List<Response<List<Tuple>>> shards = new ArrayList<>();
        try (AbstractPipeline p = redis.pipelined()) {
            RedisKeys.shards().forEach(s -> shards.add(p.zrangeByScoreWithScores(setOfShard.apply(s), 0, maxScore, 0,
                    limit)));
            p.sync();
        }
        for (int s = 0; s < shards.size(); s++) {
            for (Tuple t : shards.get(s).get()) {
                String m = t.getElement();
                int bar = m.indexOf('|');
                Optional<RunKey> key = bar < 0 ? Optional.empty() : RunKey.parse(m.substring(0, bar));
                if (key.isPresent()) {
                    into.accept(key.get(), m.substring(bar + 1), (long) t.getScore());
                } else {
                    redis.zrem(setOfShard.apply(s), m);
                }
            }
        }
    }

    private boolean removeIfScore(String set, String member, long score) {
        Object r = call(scripts.zremIfScore, List.of(set), List.of(member, Long.toString(score)));
        return r instanceof Long n && n == 1L;
    }

    /** The member of an instance in a shard's delayed and lease sets. */
    private static String member(RunKey key, String runId) {
        return key.id() + "|" + runId;
    }

    private List<String> claimKeys(RunKey key) {
        return List.of(keys.instances(key), keys.inputs(key), keys.run(key), keys.leases(key));
    }

    /** Read before the claim to render the instance's lease names. */
    @Override
    public Optional<TaskInput> input(RunKey key, String runId) {
        String stored = redis.hget(keys.inputs(key), runId);
        return stored == null ? Optional.empty() : TaskInputCodec.decode(stored);
    }

    @Override
    public long serverTimeMs() {
        return RedisTime.nowMs(redis);
    }

    private Object call(RedisScripts.Script script, List<String> k, List<String> args) {
        return calls.call(script, k, args);
    }
}
