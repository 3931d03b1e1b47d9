package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContextSwitchesTest {
    private static final int SCHEDULER = 0;
    private static final int WORKER = 1;
    private static final int REDIS = 6;

    @Test
    void aThreadsStatusGivesItsVoluntaryAndInvoluntarySwitches() {
        String status = "Name:\tswale-pool-defa\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1234\n"
                + "nonvoluntary_ctxt_switches:\t56\n";

        assertThat(ContextSwitches.parseStatus(status)).containsExactly(1234, 56);
        assertThat(ContextSwitches.parseStatus("Name:\tx\n")).containsExactly(0, 0);
    }

    @Test
    void nativeThreadNamesCutTo15CharactersFallInTheCpuMetersGroups() {
        Map<String, String> byName = Map.of(
                "swale-swale.eve", "scheduler", "swale-swale.poo", "worker", "swale-pool-defa", "worker",
                "kafka-producer-", "kafka_clients", "bench-main", "bench", "GC Thread#0", "jvm_internal",
                "C2 CompilerThre", "jvm_internal", "data-plane-kafk", "broker_and_other", "quartzScheduler", "broker_and_other");

        byName.forEach((comm, group) ->
                assertThat(ContextSwitches.GROUPS[ContextSwitches.group(comm + "\n")]).as(comm).isEqualTo(group));
    }

    @Test
    void aDeltaCountsNewThreadsFromZeroAndSplitsOffTheInvoluntary() {
        Map<String, ContextSwitches.ThreadCount> before = Map.of(
                "jvm-1", new ContextSwitches.ThreadCount(SCHEDULER, 100, 10),
                "redis-9-9", new ContextSwitches.ThreadCount(REDIS, 1_000, 0),
                "jvm-2", new ContextSwitches.ThreadCount(WORKER, 7, 7));
        // jvm-3 started in between, jvm-2 ended
        Map<String, ContextSwitches.ThreadCount> after = Map.of(
                "jvm-1", new ContextSwitches.ThreadCount(SCHEDULER, 150, 12),
                "redis-9-9", new ContextSwitches.ThreadCount(REDIS, 1_300, 5),
                "jvm-3", new ContextSwitches.ThreadCount(WORKER, 20, 1));

        Map<String, Long> delta = ContextSwitches.delta(before, after);

        assertThat(delta).containsEntry("scheduler", 52L).containsEntry("worker", 21L)
                .containsEntry("redis_server", 305L).containsEntry("broker_and_other", 0L)
                .containsEntry("total", 378L).containsEntry("involuntary", 8L);
        assertThat(ContextSwitches.delta(before, Map.of())).isEmpty();
    }

    @Test
    void thisProcessIsCountedWhereThereIsAProc() {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task")));

        Map<String, ContextSwitches.ThreadCount> now = ContextSwitches.snapshot(List.of());

        assertThat(now).isNotEmpty();
        assertThat(now.keySet()).allMatch(k -> k.startsWith("jvm-"));
        assertThat(now.values().stream().mapToLong(t -> t.voluntary() + t.involuntary()).sum()).isPositive();
    }
}
