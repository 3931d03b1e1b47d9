package io.swale.api.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.RunVersion;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunningNowTest {
    private static final RunKey KEY = new RunKey("g", Partition.of("p"));

    private static TaskInstance instance(String node, InstanceStatus status, long attempt, long token, Long startedMs) {
        return new TaskInstance(KEY.runId(node, 0), status, node, Optional.empty(), "h", 0, "pool_" + node, 0, attempt,
                3, token, Optional.empty(), Optional.empty(), 0, Optional.ofNullable(startedMs), Optional.empty(),
                Optional.empty());
    }

    private static RunView view(TaskInstance... instances) {
        Map<String, TaskInstance> byId = new LinkedHashMap<>();
        for (TaskInstance i : instances) {
            byId.put(i.runId(), i);
        }
        return new RunView(KEY, new RunVersion("{}"), GraphRunRecord.started("h", 0), Map.of(), byId);
    }

    @Test
    void onlyRunningAndCancellingInstancesRunNowOldestStartFirst() {
        RunView v = view(instance("a", InstanceStatus.PENDING, 0, 0, null),
                instance("b", InstanceStatus.RUNNING, 1, 1, 2_000L),
                instance("c", InstanceStatus.CANCELLING, 1, 1, 1_000L),
                instance("d", InstanceStatus.WAITING, 1, 1, 500L),
                instance("e", InstanceStatus.SUCCEEDED, 1, 1, 100L));

        Map<String, RunningInstance> now = RunningNow.derive(List.of(v));

        assertThat(now.values()).extracting(RunningInstance::node).containsExactly("c", "b");
        RunningInstance b = now.get("g-p-b-r0#1");
        assertThat(b.pool()).isEqualTo("pool_b");
        assertThat(b.state()).isEqualTo("running");
        assertThat(b.toJson()).containsEntry("startedAt", "1970-01-01T00:00:02Z").containsEntry("attempt", 1L)
                .containsEntry("graph", "g").containsEntry("partition", "p");
    }

    @Test
    void edgesAreStartedChangedAndClearedWithWhatTheRunIdBecame() {
        RunView before = view(instance("a", InstanceStatus.RUNNING, 1, 1, 10L),
                instance("b", InstanceStatus.RUNNING, 1, 1, 10L),
                instance("c", InstanceStatus.RUNNING, 1, 1, 10L));
        // a finished; b was asked to stop; c failed its attempt and runs again under a new claim; d started.
        RunView after = view(instance("a", InstanceStatus.SUCCEEDED, 1, 1, 10L),
                instance("b", InstanceStatus.CANCELLING, 1, 1, 10L),
                instance("c", InstanceStatus.RUNNING, 2, 2, 20L),
                instance("d", InstanceStatus.RUNNING, 1, 1, 30L));

        RunningNow.Transitions t = RunningNow.diff(RunningNow.derive(List.of(before)), RunningNow.derive(List.of(after)),
                List.of(after));

        assertThat(t.started()).extracting(RunningInstance::key).containsExactly("g-p-c-r0#2", "g-p-d-r0#1");
        assertThat(t.changed()).extracting(RunningInstance::key, RunningInstance::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("g-p-b-r0#1", "cancelling"));
        assertThat(t.cleared()).extracting(c -> c.instance().key(), RunningNow.Cleared::outcome)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("g-p-a-r0#1", "succeeded"),
                        org.assertj.core.groups.Tuple.tuple("g-p-c-r0#1", "running"));
    }

    @Test
    void anInstanceNoLongerStoredIsClearedAsGone() {
        Map<String, RunningInstance> before = RunningNow.derive(List.of(view(instance("a", InstanceStatus.RUNNING, 1, 1, 1L))));

        RunningNow.Transitions t = RunningNow.diff(before, Map.of(), List.of());

        assertThat(t.cleared()).singleElement().extracting(RunningNow.Cleared::outcome).isEqualTo("gone");
        assertThat(RunningNow.diff(before, before, List.of()).isEmpty()).isTrue();
    }
}
