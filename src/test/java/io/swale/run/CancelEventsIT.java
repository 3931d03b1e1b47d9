package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.NodeStatus;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.TaskStore;
import io.swale.task.TaskIdentity;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every node record written is announced (spec §5.6), a cancel's too: a pending instance that a cancel ends
 * sends its task-terminated event once, however often the reconciler repeats the cancel, while a running one is
 * only flagged, its worker's own finish sending the event.
 */
class CancelEventsIT {

    @Test
    void aPendingInstanceEndedByACancelIsAnnouncedOnceAndARunningOneIsLeftToItsWorker() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("cancelevents");
            String hash = h.publish("""
                    [graph]
                    name = "%1$s"
                    [[node]]
                    name = "extract"
                    produces = "%1$s_raw"
                    operator = "noop"
                    [[node]]
                    name = "ping"
                    operator = "noop"
                    """.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            assertThat(h.tasks.claim(key, key.runId("ping", 0), 60_000, "w"))
                    .isInstanceOf(TaskStore.Claim.Claimed.class);

            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();
            assertThat(h.reconciler(60_000).pass().failed()).isZero();

            assertThat(h.runs.read(key).orElseThrow().instances().get(key.runId("ping", 0)).status())
                    .isEqualTo(InstanceStatus.CANCELLING);
            assertThat(h.events).containsExactly(new RunHarness.Event(new TaskIdentity(g, key.partition(),
                    "extract", Optional.of(g + "_raw"), hash, 0), NodeStatus.CANCELLED));
        }
    }
}
