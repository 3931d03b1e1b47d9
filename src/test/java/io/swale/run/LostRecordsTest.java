package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.RunVersion;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LostRecordsTest {
    private static final RunKey KEY = new RunKey("g", Partition.of("p"));
    private static final long NOW = 5_000;

    @Test
    void aFailedInstanceWithoutItsRecordGetsOneWithTheErrorItOwesAndItsEndTime() {
        TaskInstance failed = instance(InstanceStatus.FAILED, 1, Optional.of(900L), Optional.of("exit 3"),
                Optional.of("out of attempts: exit 3"));
        NodeRecord older = record(NodeStatus.SUCCEEDED, 0);

        NodeRecord r = LostRecords.derived(view(failed, Optional.of(older)), failed, NOW).orElseThrow();

        assertThat(r.status()).isEqualTo(NodeStatus.FAILED);
        assertThat(r.runId()).isEqualTo("g-p-a-r1");
        assertThat(r.rerun()).isEqualTo(1);
        assertThat(r.terminatedAtMs()).isEqualTo(900);
        assertThat(r.error()).contains("out of attempts: exit 3");
        assertThat(r.outputOmitted()).isFalse();
    }

    @Test
    void aSucceededInstanceComesBackWithItsOutputOmittedAndAnEndedOneWithoutEndTimeIsDatedNow() {
        TaskInstance succeeded = instance(InstanceStatus.SUCCEEDED, 0, Optional.empty(), Optional.empty(),
                Optional.empty());

        NodeRecord r = LostRecords.derived(view(succeeded, Optional.empty()), succeeded, NOW).orElseThrow();

        assertThat(r.status()).isEqualTo(NodeStatus.SUCCEEDED);
        assertThat(r.outputOmitted()).isTrue();
        assertThat(r.output()).isEmpty();
        assertThat(r.error()).isEmpty();
        assertThat(r.terminatedAtMs()).isEqualTo(NOW);
    }

    @Test
    void aCancelledInstanceSaysItsRecordWasLost() {
        TaskInstance cancelled = instance(InstanceStatus.CANCELLED, 0, Optional.of(10L), Optional.empty(),
                Optional.empty());

        NodeRecord r = LostRecords.derived(view(cancelled, Optional.empty()), cancelled, NOW).orElseThrow();

        assertThat(r.status()).isEqualTo(NodeStatus.CANCELLED);
        assertThat(r.error().orElseThrow()).contains("cancelled").contains("record was lost");
    }

    @Test
    void aRecordOfTheSameOrALaterRerunOrAnInstanceStillActiveGivesNothing() {
        TaskInstance ended = instance(InstanceStatus.SUCCEEDED, 1, Optional.of(10L), Optional.empty(),
                Optional.empty());
        assertThat(LostRecords.derived(view(ended, Optional.of(record(NodeStatus.SUCCEEDED, 1))), ended, NOW))
                .isEmpty();
        assertThat(LostRecords.derived(view(ended, Optional.of(record(NodeStatus.FAILED, 2))), ended, NOW))
                .isEmpty();
        for (InstanceStatus active : new InstanceStatus[] {InstanceStatus.PENDING, InstanceStatus.RUNNING,
                InstanceStatus.WAITING, InstanceStatus.CANCELLING}) {
            TaskInstance i = instance(active, 1, Optional.empty(), Optional.empty(), Optional.empty());
            assertThat(LostRecords.derived(view(i, Optional.empty()), i, NOW)).as(active.wireName()).isEmpty();
        }
    }

    private static TaskInstance instance(InstanceStatus status, long rerun, Optional<Long> endedMs,
            Optional<String> lastError, Optional<String> owedDeadLetter) {
        return new TaskInstance(KEY.runId("a", rerun), status, "a", Optional.of("asset_a"), "def", rerun, "default",
                0, 1, 3, 1, Optional.empty(), Optional.empty(), 0, Optional.of(5L), lastError, Optional.of("w1"),
                endedMs, owedDeadLetter);
    }

    private static NodeRecord record(NodeStatus status, long rerun) {
        return new NodeRecord(status, KEY.runId("a", rerun), "def", rerun, 1, Optional.empty(), false,
                Optional.empty());
    }

    private static RunView view(TaskInstance i, Optional<NodeRecord> stored) {
        return new RunView(KEY, new RunVersion("v"), GraphRunRecord.started("def", 0),
                stored.map(r -> Map.of("a:asset_a", r)).orElse(Map.of()), Map.of(i.runId(), i));
    }
}
