package io.swale.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.stream.Stream;

/**
 * Context switches by thread group, from {@code /proc} (Linux only; elsewhere nothing is counted): every thread
 * of this process, grouped by the native name the JVM gives it (the Java name cut to 15 characters), and every
 * thread of redis-server when it runs on this machine. On two shared cores each hand-off between threads costs
 * a switch or two and wakes the next thread on cold caches, so switches per task instance say how many
 * hand-offs an instance costs where CPU per instance only says that it costs.
 *
 * <p>A snapshot is per thread, so a thread that starts between two snapshots counts from zero; one that ends
 * takes its switches with it (the role threads live as long as the service).
 */
final class ContextSwitches {
    /** The CPU meter's groups, then redis-server's threads. */
    static final String[] GROUPS = java.util.stream.Stream.concat(java.util.Arrays.stream(CpuMeter.GROUPS),
            java.util.stream.Stream.of("redis_server")).toArray(String[]::new);
    private static final int REDIS = GROUPS.length - 1;
    private static final Path PROC = Path.of("/proc");

    private ContextSwitches() {}

    /** One thread's switches: its group's index, voluntary, involuntary. */
    record ThreadCount(int group, long voluntary, long involuntary) {}

    /** Every thread of this process and of the redis-servers of {@code redisPids} that run here, keyed by tid. */
    static Map<String, ThreadCount> snapshot(List<Long> redisPids) {
        Map<String, ThreadCount> out = new HashMap<>();
        readProcess(PROC.resolve("self"), "jvm-", false, out);
        for (long pid : redisPids) {
            Path process = PROC.resolve(Long.toString(pid));
            // a Redis on another machine can have a pid that is some other process's here (the binary's file
            // name need not start with it: local mode's is prefixed with its checksum)
            if (read(process.resolve("cmdline")).contains("redis-server")) {
                readProcess(process, "redis-" + pid + "-", true, out);
            }
        }
        return out;
    }

    /**
     * Switches by group between two snapshots, with {@code total} and {@code involuntary} (of the total); empty
     * when nothing was counted (no {@code /proc}).
     */
    static Map<String, Long> delta(Map<String, ThreadCount> before, Map<String, ThreadCount> after) {
        if (after.isEmpty()) {
            return Map.of();
        }
        long[] byGroup = new long[GROUPS.length];
        long involuntary = 0;
        for (Map.Entry<String, ThreadCount> e : after.entrySet()) {
            ThreadCount now = e.getValue();
            ThreadCount then = before.getOrDefault(e.getKey(), new ThreadCount(now.group(), 0, 0));
            long voluntary = Math.max(0, now.voluntary() - then.voluntary());
            long forced = Math.max(0, now.involuntary() - then.involuntary());
            byGroup[now.group()] += voluntary + forced;
            involuntary += forced;
        }
        Map<String, Long> out = new LinkedHashMap<>();
        long total = 0;
        for (int i = 0; i < GROUPS.length; i++) {
            out.put(GROUPS[i], byGroup[i]);
            total += byGroup[i];
        }
        out.put("total", total);
        out.put("involuntary", involuntary);
        return out;
    }

    /** {@code counts} per task instance for the report's table: each group, then the total and its involuntary part. */
    static String line(Map<String, Long> counts, long tasks) {
        if (counts.isEmpty()) {
            return "not counted (no /proc)";
        }
        double n = Math.max(1, tasks);
        StringBuilder out = new StringBuilder();
        for (String group : GROUPS) {
            out.append(String.format("%s %.2f, ", group.replace('_', ' '), counts.getOrDefault(group, 0L) / n));
        }
        return out.append(String.format("total %.2f (involuntary %.2f)", counts.getOrDefault("total", 0L) / n,
                counts.getOrDefault("involuntary", 0L) / n)).toString();
    }

    /**
     * The group of a thread of this process by its native name. The names are {@link CpuMeter#group}'s cut to
     * 15 characters, so they are matched by their starts; the JVM's own threads (collector, compilers, VM
     * thread) are named by HotSpot.
     */
    static int group(String comm) {
        return CpuMeter.index(groupName(comm.strip()));
    }

    private static String groupName(String name) {
        if (name.startsWith("swale-swale.eve")) {
            return "scheduler";
        }
        if (name.startsWith("swale-swale.poo") || name.startsWith("swale-pool-") || name.startsWith("swale-heartbea")) {
            return "worker";
        }
        if (name.startsWith("kafka-producer-") || name.startsWith("kafka-coordinat")) {
            return "kafka_clients";
        }
        if (name.startsWith("bench")) {
            return "bench";
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("C1 CompilerThre")
                || name.startsWith("C2 CompilerThre") || name.startsWith("VM Thread") || name.startsWith("VM Periodic")) {
            return "jvm_internal";
        }
        return "broker_and_other";
    }

    /** {voluntary, involuntary} from the text of a {@code /proc/.../status}; {0, 0} where it says neither. */
    static long[] parseStatus(String status) {
        long[] out = new long[2];
        for (String line : status.split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                out[0] = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                out[1] = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        return out;
    }

    private static void readProcess(Path process, String keyPrefix, boolean redis, Map<String, ThreadCount> out) {
        Path tasks = process.resolve("task");
        if (!Files.isDirectory(tasks)) {
            return;
        }
        try (Stream<Path> threads = Files.list(tasks)) {
            threads.forEach(t -> {
                String status = read(t.resolve("status"));
                // a thread that ended while listed
                if (!status.isEmpty()) {
                    long[] counts = parseStatus(status);
                    int group = redis ? REDIS : group(read(t.resolve("comm")));
                    out.put(keyPrefix + t.getFileName(), new ThreadCount(group, counts[0], counts[1]));
                }
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            // the process ended, or /proc is not readable: nothing to count
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
