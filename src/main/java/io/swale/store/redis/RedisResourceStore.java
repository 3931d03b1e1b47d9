package io.swale.store.redis;

import io.swale.store.ResourceStore;
import io.swale.store.redis.RedisScripts.Script;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@link ResourceStore} as Lua scripts over nine keys that share the hash tag {@code {<prefix>:res}}: one
 * slot on Redis Cluster, so every step, a grant of several resources included, is one atomic script.
 */
public final class RedisResourceStore implements ResourceStore {
    private final UnifiedJedis redis;
    private final List<String> keys;
    // the last resource whose line's head a stale-waiter check read (waiters.lua); one caller, the reaper's thread
    private volatile String headsAfter = "";
    private final long wakeMs;
    private final ScriptCalls calls;
    private final Script grant = load("grant");
    private final Script release = load("release");
    private final Script renew = load("renew");
    private final Script reap = load("reap");
    private final Script capacity = load("capacity");
    private final Script view = load("view");
    private final Script waiters = load("waiters");
    private final Script drop = load("drop");

    /** {@code wakeMs}: a woken waiter that did not come back is woken again after this. */
    public RedisResourceStore(UnifiedJedis redis, String prefix, long wakeMs) {
        this(redis, prefix, wakeMs, Durability.NONE);
    }

    /**
     * {@code durability}: grants, releases, renewals, reaps and capacities count once it is met, as claims do
     * (their keys may be on another primary than the run's, whose WAIT would not cover them).
     */
    public RedisResourceStore(UnifiedJedis redis, String prefix, long wakeMs, Durability durability) {
        this.redis = redis;
        this.calls = new ScriptCalls(redis, durability);
        this.wakeMs = wakeMs;
        String tag = "{" + prefix + ":res}";
        this.keys = List.of("cap", "count", "grant", "deadline", "wait", "waiter", "payload", "woken", "queue", "seen").stream()
                .map(k -> prefix + ":res:" + k + tag).toList();
    }

    @Override
    public boolean declared(String name) {
        // the first key holds the declared capacities (lib.lua: CAP)
        return redis.hexists(keys.getFirst(), name);
    }

    /** The keys every script gets, for tests that check they share one slot. */
    List<String> keys() {
        return keys;
    }

    /** Each script's SHA by name, for the test that checks every one ran on a Cluster. */
    Map<String, String> scriptShas() {
        Map<String, String> out = new TreeMap<>();
        List.of(grant, release, renew, reap, capacity, view, waiters, drop).forEach(script -> out.put(script.name(), script.sha()));
        return out;
    }

    private static Script load(String name) {
        return RedisScripts.load("/redis/resources/", name);
    }

    @Override
    public Grant grant(String runId, String grantId, List<String> names, long ttlMs, String dispatch) {
        List<String> args = new ArrayList<>(List.of(runId, grantId, Long.toString(ttlMs), Long.toString(wakeMs),
                dispatch));
        args.addAll(names);
        List<?> r = (List<?>) calls.durable(grant, keys, args);
        return "granted".equals(r.get(0))
                ? new Grant.Granted(Long.parseLong((String) r.get(1)), strings(r.subList(2, r.size())))
                : new Grant.Waiting((String) r.get(1), Long.parseLong((String) r.get(2)), strings(r.subList(3, r.size())));
    }

    @Override
    public Released release(Holder holder, boolean leave) {
        List<?> r = (List<?>) calls.durable(release, keys,
                List.of(holder.runId(), holder.grantId(), Long.toString(wakeMs), leave ? "1" : "0"));
        return new Released("released".equals(r.get(0)), strings(r.subList(1, r.size())));
    }

    @Override
    public List<String> renew(Collection<Holder> holders, long ttlMs) {
        if (holders.isEmpty()) {
            return List.of();
        }
        List<String> args = new ArrayList<>(List.of(Long.toString(ttlMs)));
        holders.forEach(h -> {
            args.add(h.runId());
            args.add(h.grantId());
        });
        return strings((List<?>) calls.durable(renew, keys, args));
    }

    @Override
    public Reaped reap(int limit) {
        List<?> r = (List<?>) calls.durable(reap, keys, List.of(Long.toString(wakeMs), Integer.toString(limit)));
        return new Reaped(Integer.parseInt((String) r.get(0)), strings(r.subList(1, r.size())));
    }

    @Override
    public List<String> setCapacity(String name, int cap) {
        return strings((List<?>) calls.durable(capacity, keys, List.of(name, Integer.toString(cap), Long.toString(wakeMs))));
    }

    @Override
    public Map<String, Resource> resources() {
        List<?> r = (List<?>) view.call(redis, keys, List.of());
        Map<String, String> caps = pairs(r.get(0));
        Map<String, String> counts = pairs(r.get(1));
        Map<String, String> grants = pairs(r.get(2));
        Map<String, String> deadlines = pairs(r.get(3));
        Map<String, String> waiters = pairs(r.get(4));
        Map<String, List<HeldBy>> holders = new HashMap<>();
        grants.forEach((run, g) -> {
            String[] parts = g.split("\n");
            long deadline = (long) Double.parseDouble(deadlines.getOrDefault(run, "0"));
            for (int i = 1; i < parts.length; i++) {
                holders.computeIfAbsent(parts[i], n -> new ArrayList<>()).add(new HeldBy(run, deadline));
            }
        });
        Map<String, List<WaitedBy>> waiting = new HashMap<>();
        waiters.forEach((run, w) -> {
            String[] parts = w.split("\n");
            for (int i = 1; i < parts.length; i++) {
                waiting.computeIfAbsent(parts[i], n -> new ArrayList<>()).add(new WaitedBy(run, Long.parseLong(parts[0])));
            }
        });
        java.util.SortedSet<String> names = new java.util.TreeSet<>(caps.keySet());
        names.addAll(holders.keySet());
        names.addAll(waiting.keySet());
        Map<String, Resource> out = new TreeMap<>();
        for (String name : names) {
            List<WaitedBy> queue = new ArrayList<>(waiting.getOrDefault(name, List.of()));
            queue.sort(java.util.Comparator.comparingLong(WaitedBy::sinceMs).thenComparing(WaitedBy::runId));
            List<HeldBy> held = new ArrayList<>(holders.getOrDefault(name, List.of()));
            held.sort(java.util.Comparator.comparing(HeldBy::runId));
            out.put(name, new Resource(name, caps.containsKey(name) ? Integer.parseInt(caps.get(name)) : 1,
                    caps.containsKey(name), Integer.parseInt(counts.getOrDefault(name, "0")), held, queue));
        }
        return out;
    }

    @Override
    public List<Queued> waitersToCheck(int limit) {
        List<String> flat = strings((List<?>) waiters.call(redis, keys, List.of(Integer.toString(limit),
                headsAfter)));
        List<Queued> out = new ArrayList<>();
        for (int i = 0; i + 2 < flat.size() - 1; i += 3) {
            out.add(new Queued(flat.get(i), Long.parseLong(flat.get(i + 1)), flat.get(i + 2)));
        }
        // the next check reads the lines after the last one this one read: in turn, not from a random line
        headsAfter = flat.isEmpty() ? "" : flat.getLast();
        return out;
    }

    @Override
    public Reaped drop(Collection<Queued> stale) {
        if (stale.isEmpty()) {
            return new Reaped(0, List.of());
        }
        List<String> args = new ArrayList<>(List.of(Long.toString(wakeMs)));
        stale.forEach(q -> {
            args.add(q.runId());
            args.add(Long.toString(q.seenMs()));
        });
        List<?> r = (List<?>) calls.durable(drop, keys, args);
        return new Reaped(Integer.parseInt((String) r.get(0)), strings(r.subList(1, r.size())));
    }

    @Override
    public Map<String, List<String>> waitingFor(Collection<String> runIds) {
        if (runIds.isEmpty()) {
            return Map.of();
        }
        List<String> ids = List.copyOf(runIds);
        List<String> values = redis.hmget(keys.get(5), ids.toArray(String[]::new));
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            String w = values.get(i);
            if (w != null) {
                String[] parts = w.split("\n");
                out.put(ids.get(i), List.of(parts).subList(1, parts.length));
            }
        }
        return out;
    }

    private static List<String> strings(List<?> values) {
        return values.stream().map(String.class::cast).toList();
    }

    private static Map<String, String> pairs(Object flat) {
        List<?> list = (List<?>) flat;
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < list.size(); i += 2) {
            out.put((String) list.get(i), String.valueOf(list.get(i + 1)));
        }
        return out;
    }
}
