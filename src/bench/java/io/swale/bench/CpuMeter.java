package io.swale.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time of this process's threads by role, from ThreadMXBean: the scheduler (events listener), the
 * worker (dispatch listener, attempt executor, heartbeat ticker), the Kafka clients' I/O threads, the
 * bench itself, and the rest (the embedded broker, Spring). Threads that end between two snapshots are
 * lost, which the long-lived role threads never do.
 */
final class CpuMeter {
    static final String[] GROUPS = {"scheduler", "worker", "kafka_clients", "broker_and_other", "bench"};

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    CpuMeter() {
        if (threads.isThreadCpuTimeSupported() && !threads.isThreadCpuTimeEnabled()) {
            threads.setThreadCpuTimeEnabled(true);
        }
    }

    static String group(String thread) {
        if (thread.contains("swale.events")) {
            return "scheduler";
        }
        if (thread.contains("swale.pool.") || thread.startsWith("swale-pool-") || thread.startsWith("swale-heartbeat")) {
            return "worker";
        }
        if (thread.startsWith("kafka-producer-network-thread") || thread.startsWith("kafka-coordinator-heartbeat")) {
            return "kafka_clients";
        }
        if (thread.startsWith("bench")) {
            return "bench";
        }
        return "broker_and_other";
    }

    /** CPU ns per thread id, with each thread's group. */
    Map<Long, long[]> snapshot() {
        Map<Long, long[]> out = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu >= 0) {
                out.put(info.getThreadId(), new long[] {cpu, index(group(info.getThreadName()))});
            }
        }
        return out;
    }

    /** CPU ms by group between two snapshots. */
    static Map<String, Double> delta(Map<Long, long[]> before, Map<Long, long[]> after) {
        long[] ns = new long[GROUPS.length];
        after.forEach((id, a) -> {
            long[] b = before.get(id);
            ns[(int) a[1]] += a[0] - (b == null ? 0 : b[0]);
        });
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < GROUPS.length; i++) {
            out.put(GROUPS[i], ns[i] / 1e6);
        }
        return out;
    }

    private static int index(String group) {
        for (int i = 0; i < GROUPS.length; i++) {
            if (GROUPS[i].equals(group)) {
                return i;
            }
        }
        throw new IllegalArgumentException(group);
    }

    /** Heap in use after a full collection, MB. */
    static double heapAfterGcMb() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
    }

    static void resetHeapPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    /** The sum of the heap pools' peaks since the last reset, MB (an upper bound of the peak heap). */
    static double heapPeakMb() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum / 1048576.0;
    }
}
