package io.swale.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU time of this process by role: its Java threads from ThreadMXBean (the scheduler's events listeners,
 * the worker's dispatch listener, attempt executor and heartbeat ticker, the Kafka clients' I/O threads, the
 * bench itself, and the rest: the embedded broker, Spring), and {@code jvm_internal}, the process's CPU less
 * its Java threads': the garbage collector and the JIT compilers, which ThreadMXBean does not show. A Java
 * thread that ends between two snapshots is counted there too, which the long-lived role threads never do.
 * Also the heap each role allocates ({@link #allocatedKb}): less noisy than CPU on a machine whose speed
 * drifts, since the same work allocates the same bytes however fast it runs.
 */
final class CpuMeter {
    static final String[] GROUPS = {"scheduler", "worker", "kafka_clients", "broker_and_other", "bench", "jvm_internal"};
    private static final int JVM_INTERNAL = GROUPS.length - 1;
    /** The snapshot's key of the whole process's CPU time. */
    static final long PROCESS = -1;
    /** The allocation group of the threads that ended between two snapshots. */
    static final String ENDED_THREADS = "ended_threads";

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

    /**
     * CPU ns and heap bytes allocated per thread id, with each thread's group: {cpu, group, allocated}; the
     * whole process's under {@link #PROCESS}, its allocation that of every thread since the start, ended or not.
     */
    Map<Long, long[]> snapshot() {
        Map<Long, long[]> out = new HashMap<>();
        com.sun.management.ThreadMXBean allocation = threads instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported() ? t : null;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                && os.getProcessCpuTime() >= 0) {
            out.put(PROCESS, new long[] {os.getProcessCpuTime(), JVM_INTERNAL,
                    allocation == null ? -1 : allocation.getTotalThreadAllocatedBytes()});
        }
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = threads.getThreadCpuTime(info.getThreadId());
            if (cpu >= 0) {
                long allocated = allocation == null ? -1 : allocation.getThreadAllocatedBytes(info.getThreadId());
                out.put(info.getThreadId(), new long[] {cpu, index(group(info.getThreadName())), allocated});
            }
        }
        return out;
    }

    /**
     * Heap KB allocated by group between two snapshots, the Java threads' groups and {@code ended_threads}: what
     * threads that ended in between allocated (the process's total less the live threads'). Empty where the JVM
     * does not count allocation.
     */
    static Map<String, Double> allocatedKb(Map<Long, long[]> before, Map<Long, long[]> after) {
        long[] p0 = before.get(PROCESS);
        long[] p1 = after.get(PROCESS);
        if (p0 == null || p1 == null || p0[2] < 0 || p1[2] < 0) {
            return Map.of();
        }
        long[] bytes = new long[GROUPS.length];
        long live = 0;
        for (Map.Entry<Long, long[]> e : after.entrySet()) {
            long[] now = e.getValue();
            // -1: the thread ended between being listed and being asked
            if (e.getKey() == PROCESS || now[2] < 0) {
                continue;
            }
            long[] b = before.get(e.getKey());
            long d = now[2] - (b == null ? 0 : Math.max(0, b[2]));
            bytes[(int) now[1]] += d;
            live += d;
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < JVM_INTERNAL; i++) {
            out.put(GROUPS[i], bytes[i] / 1024.0);
        }
        out.put(ENDED_THREADS, Math.max(0, p1[2] - p0[2] - live) / 1024.0);
        return out;
    }

    /** CPU ms by group between two snapshots. */
    static Map<String, Double> delta(Map<Long, long[]> before, Map<Long, long[]> after) {
        long[] ns = new long[GROUPS.length];
        long live = 0;
        for (Map.Entry<Long, long[]> e : after.entrySet()) {
            if (e.getKey() != PROCESS) {
                long[] b = before.get(e.getKey());
                long d = e.getValue()[0] - (b == null ? 0 : b[0]);
                ns[(int) e.getValue()[1]] += d;
                live += d;
            }
        }
        if (before.containsKey(PROCESS) && after.containsKey(PROCESS)) {
            // the process's clock and the threads' are read a moment apart: never less than nothing
            ns[JVM_INTERNAL] = Math.max(0, after.get(PROCESS)[0] - before.get(PROCESS)[0] - live);
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < GROUPS.length; i++) {
            out.put(GROUPS[i], ns[i] / 1e6);
        }
        return out;
    }

    static int index(String group) {
        for (int i = 0; i < GROUPS.length; i++) {
            if (GROUPS[i].equals(group)) {
                return i;
            }
        }
        throw new IllegalArgumentException(group);
    }

    /** The JIT compilers' time since the JVM started, ms (0 where the JVM does not keep it). */
    static long jitMs() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
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
