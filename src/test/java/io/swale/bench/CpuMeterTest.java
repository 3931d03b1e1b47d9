package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuMeterTest {
    private static final long MS = 1_000_000;
    private static final int SCHEDULER = 0;
    private static final int WORKER = 1;
    private static final int BROKER = 3;
    private static final int JVM = 5;

    @Test
    void whatTheProcessSpentBeyondItsJavaThreadsIsTheJvmsOwn() {
        Map<Long, long[]> before = Map.of(1L, new long[] {100 * MS, SCHEDULER}, 2L, new long[] {50 * MS, BROKER},
                CpuMeter.PROCESS, new long[] {1_000 * MS, JVM});
        // thread 3 started between the snapshots: all of its time counts
        Map<Long, long[]> after = Map.of(1L, new long[] {300 * MS, SCHEDULER}, 2L, new long[] {80 * MS, BROKER},
                3L, new long[] {20 * MS, WORKER}, CpuMeter.PROCESS, new long[] {2_000 * MS, JVM});

        Map<String, Double> delta = CpuMeter.delta(before, after);

        assertThat(delta.get("scheduler")).isCloseTo(200, within(1e-9));
        assertThat(delta.get("broker_and_other")).isCloseTo(30, within(1e-9));
        assertThat(delta.get("worker")).isCloseTo(20, within(1e-9));
        assertThat(delta.get("jvm_internal")).isCloseTo(750, within(1e-9));
        assertThat(delta.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1_000, within(1e-9));
    }

    @Test
    void theProcessReadAMomentBeforeItsThreadsNeverGivesLessThanNothing() {
        Map<Long, long[]> before = Map.of(1L, new long[] {0, SCHEDULER}, CpuMeter.PROCESS, new long[] {0, JVM});
        Map<Long, long[]> after = Map.of(1L, new long[] {10 * MS, SCHEDULER}, CpuMeter.PROCESS, new long[] {9 * MS, JVM});

        assertThat(CpuMeter.delta(before, after)).containsEntry("jvm_internal", 0.0).containsEntry("scheduler", 10.0);
    }

    @Test
    void withoutTheProcessesTimeOnlyTheThreadsCount() {
        Map<String, Double> delta = CpuMeter.delta(Map.of(1L, new long[] {0, WORKER}),
                Map.of(1L, new long[] {4 * MS, WORKER}));

        assertThat(delta).containsEntry("worker", 4.0).containsEntry("jvm_internal", 0.0);
    }

    @Test
    void aRealSnapshotHoldsTheProcessAndItsTimeGrows() {
        CpuMeter meter = new CpuMeter();
        Map<Long, long[]> first = meter.snapshot();
        long spin = 0;
        for (int i = 0; i < 5_000_000; i++) {
            spin += Long.numberOfTrailingZeros(i ^ spin);
        }
        Map<Long, long[]> second = meter.snapshot();

        assertThat(first).containsKey(CpuMeter.PROCESS);
        assertThat(spin).isPositive();
        assertThat(second.get(CpuMeter.PROCESS)[0]).isGreaterThan(first.get(CpuMeter.PROCESS)[0]);
        assertThat(CpuMeter.jitMs()).isNotNegative();
    }

    @Test
    void whatEndedThreadsAllocatedIsTheProcessTotalLessTheLiveThreads() {
        Map<Long, long[]> before = Map.of(1L, new long[] {0, SCHEDULER, 1_024}, 2L, new long[] {0, BROKER, 0},
                CpuMeter.PROCESS, new long[] {0, JVM, 10_240});
        // thread 2 ended between the snapshots, thread 3 started: its bytes count whole
        Map<Long, long[]> after = Map.of(1L, new long[] {0, SCHEDULER, 5_120}, 3L, new long[] {0, WORKER, 2_048},
                CpuMeter.PROCESS, new long[] {0, JVM, 22_528});

        Map<String, Double> kb = CpuMeter.allocatedKb(before, after);

        assertThat(kb).containsEntry("scheduler", 4.0).containsEntry("worker", 2.0).containsEntry("broker_and_other", 0.0)
                .containsEntry(CpuMeter.ENDED_THREADS, 6.0).doesNotContainKey("jvm_internal");
        assertThat(kb.values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(12.0);
    }

    @Test
    void withoutAllocationCountsThereIsNoAllocationFigure() {
        Map<Long, long[]> before = Map.of(1L, new long[] {0, SCHEDULER, -1}, CpuMeter.PROCESS, new long[] {0, JVM, -1});
        Map<Long, long[]> after = Map.of(1L, new long[] {MS, SCHEDULER, -1}, CpuMeter.PROCESS, new long[] {MS, JVM, -1});

        assertThat(CpuMeter.allocatedKb(before, after)).isEmpty();
    }

    @Test
    void aRealSnapshotCountsWhatThisThreadAllocates() {
        CpuMeter meter = new CpuMeter();
        Map<Long, long[]> first = meter.snapshot();
        byte[][] kept = new byte[64][];
        for (int i = 0; i < kept.length; i++) {
            kept[i] = new byte[16_384];
        }
        Map<String, Double> kb = CpuMeter.allocatedKb(first, meter.snapshot());

        assertThat(kept[63]).hasSize(16_384);
        assertThat(kb.values().stream().mapToDouble(Double::doubleValue).sum()).isGreaterThanOrEqualTo(1_024);
    }
}
