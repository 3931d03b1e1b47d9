package io.swale.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.swale.graph.Partition;
import io.swale.record.GraphRecord;
import io.swale.record.GraphRunRecord;
import io.swale.record.RunState;
import io.swale.run.DefinitionCatalog;
import io.swale.store.DefinitionStore;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RunViewsTest {
    private final DefinitionStore definitions = mock(DefinitionStore.class);
    private final RunStore runs = mock(RunStore.class);
    private final AtomicLong now = new AtomicLong();
    private final RunViews views = new RunViews(definitions, mock(DefinitionCatalog.class), runs,
            mock(TaskStore.class), null, now::get);
    private final Partition p1 = Partition.of("p1");
    private final RunKey run = new RunKey("g", p1);

    @Test
    void theGraphListSharesItsRunCountsForASecondAndReadsTheLatestRunEveryTime() {
        when(definitions.graphRecords()).thenReturn(new TreeMap<>());
        when(runs.graphsWithRuns()).thenReturn(Set.of("g"));
        when(runs.newestPartitions(Set.of("g"), Integer.MAX_VALUE)).thenReturn(Map.of("g", List.of(p1)));
        when(runs.newestPartitions(Set.of("g"), 4)).thenReturn(Map.of("g", List.of(p1)));
        // in the order graphs() reads them: the counts' walk, then the latest run
        when(runs.runRecords(List.of(run))).thenReturn(
                Map.of(run, record(RunState.ACTIVE)), Map.of(run, record(RunState.ACTIVE)),
                Map.of(run, record(RunState.COMPLETE)),
                Map.of(run, record(RunState.COMPLETE)), Map.of(run, record(RunState.COMPLETE)));

        assertThat(only(views.graphs())).containsEntry("runs", counts(1, 0))
                .containsEntry("latest", Map.of("partition", "p1", "state", "active"));

        now.set(Duration.ofMillis(999).toNanos());
        assertThat(only(views.graphs())).containsEntry("runs", counts(1, 0))
                .containsEntry("latest", Map.of("partition", "p1", "state", "complete"));
        verify(runs, times(1)).newestPartitions(Set.of("g"), Integer.MAX_VALUE);
        // one read for the counts, one per answer for the latest run: a newest run with its record needs no more
        verify(runs, times(3)).runRecords(List.of(run));

        now.set(Duration.ofSeconds(1).toNanos());
        assertThat(only(views.graphs())).containsEntry("runs", counts(0, 1));
        verify(runs, times(2)).newestPartitions(Set.of("g"), Integer.MAX_VALUE);
    }

    /** Was: every run's instances, node records and growths were read for a row that shows none of them. */
    @Test
    void theRunListReadsOnlyTheRunRecordsOfAPage() {
        RunKey second = new RunKey("g", Partition.of("p2"));
        when(definitions.graphRecord("g")).thenReturn(Optional.of(new GraphRecord("h", 5)));
        when(runs.partitions("g", Optional.empty(), 3)).thenReturn(List.of(p1, second.partition()));
        Map<RunKey, GraphRunRecord> records = new LinkedHashMap<>();
        records.put(run, record(RunState.COMPLETE));
        records.put(second, record(RunState.ACTIVE));
        when(runs.runRecords(List.of(run, second))).thenReturn(records);

        List<Map<String, Object>> page = views.runsOf("g", Optional.empty(), 3);

        assertThat(page).extracting(m -> m.get("partition") + " " + m.get("state"))
                .containsExactly("p1 complete", "p2 active");
        verify(runs, times(0)).readAll(anyList());
    }

    @Test
    void anInstanceWaitingForARetryIsPendingAsTheContractSaysWithWhenItIsDue() {
        Map<String, Object> waiting = RunViews.instanceView(instance(InstanceStatus.WAITING, Optional.of(7_000L)));
        assertThat(waiting).containsEntry("state", "pending").containsEntry("dueAt", "1970-01-01T00:00:07Z");
        for (InstanceStatus s : InstanceStatus.values()) {
            if (s.isActive()) {
                assertThat(RunViews.instanceView(instance(s, Optional.empty())).get("state"))
                        .as("%s (interfaces §2)", s).isIn("pending", "running", "cancelling");
            }
        }
        assertThat(RunViews.instanceView(instance(InstanceStatus.PENDING, Optional.empty()))).doesNotContainKey("dueAt");
    }

    private static TaskInstance instance(InstanceStatus status, Optional<Long> due) {
        return new TaskInstance("g-p1-n-r0", status, "n", Optional.empty(), "h", 0, "default", 0, 1, 3, 2,
                Optional.empty(), due, 1_000, Optional.empty(), Optional.of("try later"), Optional.empty());
    }

    @Test
    void aGraphPublishedSinceTheCountsWereTakenIsListedAtOnceWithNoRuns() {
        when(definitions.graphRecords())
                .thenReturn(new TreeMap<>(), new TreeMap<>(Map.of("g", new GraphRecord("h", 5))));
        when(runs.graphsWithRuns()).thenReturn(Set.of());
        assertThat(views.graphs()).isEmpty();

        List<Map<String, Object>> listed = views.graphs();
        assertThat(only(listed)).containsEntry("name", "g").containsEntry("definition", "h")
                .containsEntry("runs", counts(0, 0));
        assertThat(only(listed).get("latest")).isNull();
    }

    @Test
    void theLatestRunIsTheNewestWhoseRecordIsThere() {
        Partition p2 = Partition.of("p2");
        RunKey withoutRecord = new RunKey("g", p2);
        when(definitions.graphRecords()).thenReturn(new TreeMap<>());
        when(runs.graphsWithRuns()).thenReturn(Set.of("g"));
        when(runs.newestPartitions(Set.of("g"), 4)).thenReturn(Map.of("g", List.of(p2, p1)));
        when(runs.runRecords(List.of(withoutRecord))).thenReturn(Map.of());
        when(runs.runRecords(List.of(run))).thenReturn(Map.of(run, record(RunState.FAILED)));

        assertThat(only(views.graphs())).containsEntry("latest", Map.of("partition", "p1", "state", "failed"));
        verify(runs).runRecords(List.of(withoutRecord));
        verify(runs).runRecords(List.of(run));
    }

    @Test
    void theRecentRunsAndTheLatestComeFromOneReadOfTheRecords() {
        RunKey second = new RunKey("g", Partition.of("p2"));
        when(definitions.graphRecords()).thenReturn(new TreeMap<>());
        when(runs.graphsWithRuns()).thenReturn(Set.of("g"));
        when(runs.newestPartitions(Set.of("g"), 4)).thenReturn(Map.of("g", List.of(second.partition(), p1)));
        Map<RunKey, GraphRunRecord> records = new LinkedHashMap<>();
        records.put(second, record(RunState.COMPLETE));
        records.put(run, record(RunState.FAILED));
        when(runs.runRecords(List.of(second, run))).thenReturn(records);

        Map<String, Object> listed = only(views.graphs(2));
        assertThat(listed).containsEntry("latest", Map.of("partition", "p2", "state", "complete"));
        assertThat(listed.get("recent")).isEqualTo(List.of(Map.of("partition", "p2", "state", "complete"),
                Map.of("partition", "p1", "state", "failed")));
        verify(runs, times(1)).runRecords(anyList());
        assertThat(only(views.graphs())).doesNotContainKey("recent");
    }

    private static Map<String, Object> only(List<Map<String, Object>> graphs) {
        assertThat(graphs).hasSize(1);
        return graphs.getFirst();
    }

    private static Map<String, Integer> counts(int active, int complete) {
        return Map.of("active", active, "complete", complete, "failed", 0, "cancelled", 0);
    }

    /** Was: a page came back short for an index entry without its run, and `status` took it for the last one. */
    @Test
    @SuppressWarnings("unchecked")
    void aPageOfRunsIsFilledPastAnIndexEntryWithoutItsRun() {
        when(runs.graphsWithRuns()).thenReturn(Set.of("g"));
        List<Partition> ps = List.of("p1", "p2", "p3", "p4").stream().map(Partition::of).toList();
        when(runs.partitions("g", Optional.empty(), 3)).thenReturn(ps.subList(0, 3));
        when(runs.partitions("g", Optional.of("p3"), 2)).thenReturn(ps.subList(2, 4));
        // p2's entry is in the index, its run is not (yet, or no more)
        when(runs.runRecords(anyList())).thenAnswer(i -> {
            Map<RunKey, GraphRunRecord> found = new LinkedHashMap<>();
            ((List<RunKey>) i.getArgument(0)).stream().filter(k -> !k.partition().key().equals("p2"))
                    .forEach(k -> found.put(k, record(RunState.COMPLETE)));
            return found;
        });

        assertThat(views.runsOf("g", Optional.empty(), 3)).extracting(m -> m.get("partition"))
                .containsExactly("p1", "p3", "p4");
    }

    /**
     * The cursor's own entry went between two reads of the index, so the read after it brought one entry too many:
     * the page goes on from the last entry it looked at. Was: from the one it dropped, which it then skipped as
     * already listed, so `e` was never listed.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aPageGoesOnFromTheLastEntryItLookedAtWhenTheCursorsEntryWent() {
        when(runs.graphsWithRuns()).thenReturn(Set.of("g"));
        List<Partition> ps = List.of("a", "b", "c", "d", "e", "f").stream().map(Partition::of).toList();
        when(runs.partitions("g", Optional.empty(), 3)).thenReturn(ps.subList(0, 3));
        // c expired after the first read
        when(runs.partitions("g", Optional.of("c"), 2)).thenReturn(ps.subList(3, 5));
        when(runs.partitions("g", Optional.of("d"), 2)).thenReturn(ps.subList(3, 5));
        when(runs.partitions("g", Optional.of("e"), 2)).thenReturn(ps.subList(4, 6));
        // b's and d's entries are in the index, their runs are not (a start not written yet)
        when(runs.runRecords(anyList())).thenAnswer(i -> {
            Map<RunKey, GraphRunRecord> found = new LinkedHashMap<>();
            ((List<RunKey>) i.getArgument(0)).stream().filter(k -> !Set.of("b", "d").contains(k.partition().key()))
                    .forEach(k -> found.put(k, record(RunState.COMPLETE)));
            return found;
        });

        assertThat(views.runsOf("g", Optional.empty(), 3)).extracting(m -> m.get("partition"))
                .containsExactly("a", "c", "e");
    }

    private static GraphRunRecord record(RunState state) {
        return new GraphRunRecord("h", 0, state, Optional.empty(), new TreeMap<>());
    }
}
