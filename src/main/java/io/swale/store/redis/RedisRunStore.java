package io.swale.store.redis;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunVersion;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * Graph runs in Redis: the run record as a string (compared byte for byte by the put and settle scripts), node
 * records and task instances as hashes, all under the hash tag of the run's shard with its shard's indexes.
 */
public final class RedisRunStore implements RunStore {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RedisRunStore.class);
    private final UnifiedJedis redis;
    private final ScriptCalls calls;
    private final RedisKeys keys;
    private final RedisScripts scripts = new RedisScripts();
    /** settle.lua's request-record arguments when none commits with the settle. */
    static final List<String> NO_REQUEST = List.of("", "", "", "");

    public RedisRunStore(UnifiedJedis redis, String prefix) {
        this(redis, prefix, Durability.NONE);
    }

    public RedisRunStore(UnifiedJedis redis, String prefix, Durability durability) {
        this.redis = redis;
        this.calls = new ScriptCalls(redis, durability);
        this.keys = new RedisKeys(prefix);
    }

    @Override
    public boolean create(RunKey key, GraphRunRecord run) {
        return createEach(List.of(new NewRun(key, run))).getFirst();
    }

    /**
     * Creates each run (create-only) and lists it as active in one script, the runs' graph indexes before them in
     * one round trip and the runs in a second: an index entry without a run is skipped, a run missing from one would
     * be lost. A third lists the runs created again: retention deleting a partition's old run between the first
     * listing and the creation unlists the partition, finding no run. One pipeline per slot group: a Cluster
     * pipeline over several nodes starts a thread pool on each sync.
     */
    @Override
    public List<Boolean> createEach(List<NewRun> created) {
        if (created.isEmpty()) {
            return List.of();
        }
        list(created.stream().map(NewRun::key).toList());
        List<Boolean> answers = calls.pipelined(scripts.createRun, created, n -> createKeys(n.key()),
                n -> createArgs(n.key(), n.run()), RedisRunStore::created,
                n -> created(calls.call(scripts.createRun, createKeys(n.key()), createArgs(n.key(), n.run()))),
                e -> {
                    throw e;
                }, false);
        List<RunKey> made = new ArrayList<>();
        for (int i = 0; i < created.size(); i++) {
            if (answers.get(i)) {
                made.add(created.get(i).key());
            }
        }
        if (!made.isEmpty()) {
            list(made);
        }
        return answers;
    }

    /** Lists runs in their graphs' indexes, in one round trip. */
    private void list(List<RunKey> runs) {
        try (AbstractPipeline p = redis.pipelined()) {
            Set<String> graphs = new java.util.LinkedHashSet<>();
            for (RunKey key : runs) {
                p.zadd(keys.runsOfGraph(key.graph()), 0, key.partition().key());
                graphs.add(key.graph());
            }
            graphs.forEach(g -> p.sadd(keys.graphsWithRuns(), g));
            p.sync();
        }
    }

    private List<String> createKeys(RunKey key) {
        return List.of(keys.activeRuns(key), keys.run(key));
    }

    private static List<String> createArgs(RunKey key, GraphRunRecord run) {
        return List.of(Long.toString(run.requestedAtMs()), key.id(), RunRecordCodec.encode(run));
    }

    private static boolean created(Object answer) {
        return Long.valueOf(1).equals(answer);
    }

    @Override
    public Optional<RunView> read(RunKey key) {
        List<RunView> views = readAll(List.of(key));
        return views.isEmpty() ? Optional.empty() : Optional.of(views.getFirst());
    }

    @Override
    public List<RunView> readAll(List<RunKey> runKeys) {
        return read(runKeys, false).stream().map(r -> ((Read.Found) r).view()).toList();
    }

    @Override
    public List<Read> readEach(List<RunKey> runKeys) {
        return read(runKeys, true);
    }

    private List<Read> read(List<RunKey> runKeys, boolean each) {
        List<Response<String>> runs = new ArrayList<>();
        List<Response<Map<String, byte[]>>> nodes = new ArrayList<>();
        List<Response<Map<String, byte[]>>> instances = new ArrayList<>();
        List<Response<Map<String, String>>> growths = new ArrayList<>();
        try (AbstractPipeline p = redis.pipelined()) {
            for (RunKey key : runKeys) {
                runs.add(p.get(keys.run(key)));
                // the instances before the records, never after: another client's script may run between two reads
                // of a pipeline, and finish.lua ends an instance and writes its record in one step, so an instance
                // read as ended always comes with its record. The other way round, a record read before its finish
                // beside an instance read after it would show the node as failed with nothing active, and a settle
                // could end a rerun's run as failed
                instances.add(RawHashReads.hgetAll(p, keys.instances(key)));
                nodes.add(RawHashReads.hgetAll(p, keys.nodeRecords(key)));
                // after the records, never before: finish.lua writes a record and its growth in one script, so a
                // succeeded declaring record read here always comes with its growth (a newer growth whose record
                // was not read yet is ignored, its rerun or record not matching: docs/dynamic-graphs.md §8.7)
                growths.add(p.hgetAll(keys.growths(key)));
            }
            p.sync();
        }
        List<Read> views = new ArrayList<>();
        for (int i = 0; i < runKeys.size(); i++) {
            String raw = runs.get(i).get();
            if (raw == null) {
                continue;
            }
            RunKey key = runKeys.get(i);
            GraphRunRecord run;
            try {
                run = RunRecordCodec.decode(keys.run(key), raw);
            } catch (RuntimeException e) {
                if (!each) {
                    throw e;
                }
                views.add(new Read.Unreadable(key, e.getMessage()));
                continue;
            }
            String where = key.id() + "#";
            views.add(new Read.Found(new RunView(key, new RunVersion(raw), run,
                    new LazyDecoded<>(nodes.get(i).get(), (field, json) -> NodeRecordCodec.decode(where + field, json)),
                    new LazyDecoded<>(instances.get(i).get(), InstanceCodec::decode), Map.copyOf(growths.get(i).get()))));
        }
        return views;
    }

    @Override
    public boolean compareAndPut(RunKey key, RunVersion expected, GraphRunRecord next) {
        return compareAndSet(key, expected, next);
    }

    /** The version is the stored text, compared byte for byte together with the instances in one script. */
    @Override
    public boolean compareAndSettle(RunKey key, RunVersion expected, GraphRunRecord settled,
            Collection<String> absentRunIds) {
        Settle s = new Settle(key, expected, settled, List.copyOf(absentRunIds));
        return isSettled(calls.durable(scripts.settle, settleKeys(s), settleArgs(s)));
    }

    /** Every settle's script in one pipeline, each in its run's slot; a failed script fails its own run. */
    @Override
    public List<Settled> settleEach(List<Settle> settles) {
        if (settles.size() < 2) {
            return RunStore.super.settleEach(settles);
        }
        return calls.pipelined(scripts.settle, settles, this::settleKeys, RedisRunStore::settleArgs,
                r -> new Settled.Done(isSettled(r)),
                s -> new Settled.Done(compareAndSettle(s.key(), s.expected(), s.settled(), s.absentRunIds())),
                Settled.Failed::new, true);
    }

    private List<String> settleKeys(Settle s) {
        return settleKeys(keys, s.key());
    }

    private static List<String> settleArgs(Settle s) {
        return settleArgs(s.expected(), s.settled(), s.key(), NO_REQUEST, s.absentRunIds());
    }

    /** settle.lua's keys for the run {@code key}; a request record's key follows when one commits with it. */
    static List<String> settleKeys(RedisKeys keys, RunKey key) {
        return List.of(keys.run(key), keys.instances(key), keys.expiry(key), keys.activeRuns(key));
    }

    /**
     * settle.lua's arguments: the run's, then the request record's ({@link RedisRequestStore#recordArgs}, or
     * {@link #NO_REQUEST}), then the run ids that must not be active.
     */
    static List<String> settleArgs(RunVersion expected, GraphRunRecord settled, RunKey key, List<String> request,
            List<String> absentRunIds) {
        List<String> args = new ArrayList<>(List.of(expected.value(), RunRecordCodec.encode(settled),
                settled.settledAtMs().map(String::valueOf).orElse(""), "run:" + key.id(), key.id()));
        args.addAll(request);
        args.addAll(absentRunIds);
        return args;
    }

    private static boolean isSettled(Object reply) {
        return reply instanceof Long n && n == 1L;
    }

    /** The version is the stored text: the put script writes only if it is unchanged byte for byte. */
    private boolean compareAndSet(RunKey key, RunVersion expected, GraphRunRecord next) {
        boolean active = next.state() == io.swale.record.RunState.ACTIVE;
        Object r = calls.durable(scripts.putRun, List.of(keys.run(key), keys.activeRuns(key)),
                List.of(expected.value(), RunRecordCodec.encode(next), active ? "1" : "0", key.id(),
                        Long.toString(System.currentTimeMillis())));
        return r instanceof Long n && n == 1L;
    }

    /** Every shard's active runs. */
    @Override
    public List<RunKey> activeRuns() {
        List<Response<List<String>>> shards = new ArrayList<>();
        try (AbstractPipeline p = redis.pipelined()) {
            RedisKeys.shards().forEach(s -> shards.add(p.zrange(keys.activeRuns(s), 0, -1)));
            p.sync();
        }
        List<RunKey> active = new ArrayList<>();
        shards.forEach(r -> r.get().forEach(id -> RunKey.parse(id).ifPresent(active::add)));
        return active;
    }

    @Override
    public boolean dropActive(RunKey key) {
        Object r = calls.call(scripts.dropActive, List.of(keys.activeRuns(key), keys.run(key), keys.instances(key)),
                List.of(key.id()));
        return r instanceof Long n && n == 1L;
    }

    @Override
    public void putRepairError(RunKey key, RepairError error) {
        tools.jackson.databind.node.ObjectNode o = io.swale.record.RecordCodec.JSON.createObjectNode();
        o.put("at_ms", error.atMs());
        o.put("pass", error.pass());
        o.put("message", error.message());
        redis.hset(keys.repairErrors(), key.id(), io.swale.record.RecordCodec.text(o));
    }

    @Override
    public void clearRepairError(RunKey key) {
        redis.hdel(keys.repairErrors(), key.id());
    }

    @Override
    public Optional<RepairError> repairError(RunKey key) {
        return Optional.ofNullable(redis.hget(keys.repairErrors(), key.id())).flatMap(RedisRunStore::repairError);
    }

    @Override
    public Map<RunKey, RepairError> repairErrors() {
        Map<RunKey, RepairError> out = new LinkedHashMap<>();
        redis.hgetAll(keys.repairErrors()).forEach((id, json) -> RunKey.parse(id)
                .ifPresent(k -> repairError(json).ifPresent(e -> out.put(k, e))));
        return out;
    }

    private static Optional<RepairError> repairError(String json) {
        try {
            tools.jackson.databind.JsonNode o = io.swale.record.RecordCodec.JSON.readTree(json);
            return Optional.of(new RepairError(o.path("at_ms").asLong(), o.path("pass").asString(""),
                    o.path("message").asString("")));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public void markActive(RunKey key) {
        redis.zadd(keys.activeRuns(key), System.currentTimeMillis(), key.id());
    }

    @Override
    public List<Partition> partitions(String graph, Optional<String> from, int limit) {
        String min = from.map(f -> "[" + f).orElse("-");
        List<Partition> out = new ArrayList<>();
        // an entry that is no partition key (written by hand) is skipped and the page filled from the entries after
        // it (spec §5.1): a caller reads a page shorter than asked as the index's end
        while (out.size() < limit) {
            int ask = limit - out.size();
            List<String> entries = redis.zrangeByLex(keys.runsOfGraph(graph), min, "+", 0, ask);
            for (String p : entries) {
                if (Partition.isValid(p)) {
                    out.add(Partition.of(p));
                }
            }
            if (entries.size() < ask) {
                break;
            }
            min = "(" + entries.getLast();
        }
        return out;
    }

    @Override
    public Map<String, List<Partition>> newestPartitions(Collection<String> graphs, int limit) {
        if (limit <= 0) {
            return Map.of();
        }
        Map<String, Response<List<String>>> pending = new LinkedHashMap<>();
        try (AbstractPipeline p = redis.pipelined()) {
            // every score is 0, so the lexical order is the partition order
            graphs.forEach(g -> pending.put(g, p.zrevrangeByLex(keys.runsOfGraph(g), "+", "-", 0, limit)));
            p.sync();
        }
        Map<String, List<Partition>> out = new LinkedHashMap<>();
        pending.forEach((graph, newest) -> out.put(graph,
                newest.get().stream().filter(Partition::isValid).map(Partition::of).toList()));
        return out;
    }

    @Override
    public Map<RunKey, GraphRunRecord> runRecords(List<RunKey> runKeys) {
        List<Response<String>> raw = new ArrayList<>();
        try (AbstractPipeline p = redis.pipelined()) {
            runKeys.forEach(k -> raw.add(p.get(keys.run(k))));
            p.sync();
        }
        Map<RunKey, GraphRunRecord> out = new LinkedHashMap<>();
        for (int i = 0; i < runKeys.size(); i++) {
            String value = raw.get(i).get();
            if (value == null) {
                continue;
            }
            try {
                out.put(runKeys.get(i), RunRecordCodec.decode(keys.run(runKeys.get(i)), value));
            } catch (RuntimeException e) {
                log.warn("skipping malformed run record run={} error={}", runKeys.get(i), e.getMessage());
            }
        }
        return out;
    }

    @Override
    public Map<RunKey, List<TaskInstance>> instances(List<RunKey> runKeys) {
        List<Response<Map<String, String>>> raw = new ArrayList<>();
        try (AbstractPipeline p = redis.pipelined()) {
            runKeys.forEach(k -> raw.add(p.hgetAll(keys.instances(k))));
            p.sync();
        }
        Map<RunKey, List<TaskInstance>> out = new LinkedHashMap<>();
        for (int i = 0; i < runKeys.size(); i++) {
            List<TaskInstance> list = new ArrayList<>();
            raw.get(i).get().forEach((runId, json) -> {
                try {
                    list.add(InstanceCodec.decode(runId, json));
                } catch (RuntimeException e) {
                    log.warn("skipping malformed task instance runId={} error={}", runId, e.getMessage());
                }
            });
            out.put(runKeys.get(i), list);
        }
        return out;
    }

    @Override
    public Set<String> graphsWithRuns() {
        return new TreeSet<>(redis.smembers(keys.graphsWithRuns()));
    }

    @Override
    public long nowMs() {
        return RedisTime.nowMs(redis);
    }

    /**
     * Node records or task instances by field, each decoded when first looked at: an event that settles
     * nothing never needs them, a wide run has many, and a malformed one fails only the caller that reads it.
     */
    private static final class LazyDecoded<T> extends java.util.AbstractMap<String, T> {
        private final Map<String, byte[]> raw;
        private final java.util.function.BiFunction<String, byte[], T> decode;
        private final Map<String, T> decoded = new java.util.HashMap<>();
        private Set<Entry<String, T>> entries;

        LazyDecoded(Map<String, byte[]> raw, java.util.function.BiFunction<String, byte[], T> decode) {
            this.raw = raw;
            this.decode = decode;
        }

        @Override
        public T get(Object field) {
            byte[] json = raw.get(field);
            return json == null ? null : decoded.computeIfAbsent((String) field, f -> decode.apply(f, json));
        }

        /** The fields without decoding a value: a caller can then look each up on its own. */
        @Override
        public Set<String> keySet() {
            return java.util.Collections.unmodifiableSet(raw.keySet());
        }

        @Override
        public boolean containsKey(Object field) {
            return raw.containsKey(field);
        }

        @Override
        public int size() {
            return raw.size();
        }

        @Override
        public Set<Entry<String, T>> entrySet() {
            if (entries == null) {
                Map<String, T> all = new LinkedHashMap<>();
                raw.keySet().forEach(f -> all.put(f, get(f)));
                entries = java.util.Collections.unmodifiableMap(all).entrySet();
            }
            return entries;
        }
    }
}
