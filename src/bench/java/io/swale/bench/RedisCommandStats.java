package io.swale.bench;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import redis.clients.jedis.Jedis;

/**
 * Calls and server time per Redis command, from {@code INFO commandstats} summed over a server's nodes. Commands a
 * script runs are counted under their own names as well as the script's {@code evalsha}, which is what shows where
 * a task instance's commands go.
 */
record RedisCommandStats(Map<String, Count> byCommand) {

    /** Calls of one command and the microseconds the server spent in them. */
    record Count(long calls, long usec) {
        Count minus(Count earlier) {
            return new Count(calls - earlier.calls, usec - earlier.usec);
        }
    }

    static final RedisCommandStats EMPTY = new RedisCommandStats(Map.of());

    static RedisCommandStats read(List<Jedis> nodes) {
        Map<String, Count> sums = new TreeMap<>();
        for (Jedis node : nodes) {
            parse(node.info("commandstats")).byCommand.forEach((name, c) -> sums.merge(name, c,
                    (a, b) -> new Count(a.calls + b.calls, a.usec + b.usec)));
        }
        return new RedisCommandStats(sums);
    }

    /** Lines such as {@code cmdstat_hget:calls=12,usec=30,usec_per_call=2.50,rejected_calls=0,failed_calls=0}. */
    static RedisCommandStats parse(String info) {
        Map<String, Count> counts = new TreeMap<>();
        for (String line : info.split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            int colon = line.indexOf(':');
            String name = line.substring("cmdstat_".length(), colon);
            long calls = 0;
            long usec = 0;
            for (String pair : line.substring(colon + 1).split(",")) {
                int eq = pair.indexOf('=');
                switch (pair.substring(0, eq)) {
                    case "calls" -> calls = Long.parseLong(pair.substring(eq + 1));
                    case "usec" -> usec = Long.parseLong(pair.substring(eq + 1));
                    default -> { }
                }
            }
            counts.put(name, new Count(calls, usec));
        }
        return new RedisCommandStats(counts);
    }

    /** What ran since {@code earlier}; the bench's own {@code info} left out, commands that did not run dropped. */
    RedisCommandStats minus(RedisCommandStats earlier) {
        Map<String, Count> delta = new LinkedHashMap<>();
        byCommand.entrySet().stream()
                .filter(e -> !e.getKey().equals("info"))
                .map(e -> Map.entry(e.getKey(), e.getValue().minus(earlier.byCommand.getOrDefault(e.getKey(),
                        new Count(0, 0)))))
                .filter(e -> e.getValue().calls() > 0)
                .sorted(Comparator.comparingLong((Map.Entry<String, Count> e) -> e.getValue().calls()).reversed()
                        .thenComparing(Map.Entry::getKey))
                .forEach(e -> delta.put(e.getKey(), e.getValue()));
        return new RedisCommandStats(delta);
    }

    /** These figures less {@code calls} of {@code name} that someone else sent (their server time is unknown). */
    RedisCommandStats lessCalls(String name, long calls) {
        if (calls == 0 || !byCommand.containsKey(name)) {
            return this;
        }
        Map<String, Count> less = new LinkedHashMap<>(byCommand);
        less.computeIfPresent(name, (k, c) -> new Count(Math.max(0, c.calls() - calls), c.usec()));
        return new RedisCommandStats(less);
    }

    /** The {@code limit} most called commands, per task instance of {@code tasks}: calls and server µs. */
    String perTask(long tasks, int limit) {
        double n = Math.max(1, tasks);
        return byCommand.entrySet().stream().limit(limit)
                .map(e -> String.format("%s %.2f (%.0f µs)", e.getKey(), e.getValue().calls() / n, e.getValue().usec() / n))
                .collect(java.util.stream.Collectors.joining(", "));
    }
}
