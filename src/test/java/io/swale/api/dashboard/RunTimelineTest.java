package io.swale.api.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.store.AttemptRecord;
import io.swale.store.InstanceStatus;
import io.swale.store.TaskInstance;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunTimelineTest {

    private static TaskInstance instance(long rerun, InstanceStatus status, long attempt, long dispatchedMs,
            Optional<Long> startedMs) {
        return new TaskInstance("g-p-n-r" + rerun, status, "n", Optional.of("a"), "def", rerun, "default", 0, attempt, 3, attempt,
                Optional.empty(), Optional.empty(), dispatchedMs, startedMs, Optional.empty(), Optional.of("w1"));
    }

    private static AttemptRecord attempt(long n, long from, long to, String outcome) {
        return new AttemptRecord(n, 0, Optional.of("w1"), from, to, outcome, Optional.of("boom " + n));
    }

    private static List<String> shape(List<RunTimeline.Bar> bars) {
        return bars.stream().map(b -> b.kind() + ":" + b.attempt() + ":" + b.fromMs() + "-" + b.toMs().map(String::valueOf)
                .orElse("now") + ":" + b.outcome()).toList();
    }

    @Test
    void aRetriedInstanceHasItsQueueWaitEachAttemptAndTheWaitBetween() {
        TaskInstance i = instance(0, InstanceStatus.SUCCEEDED, 2, 2500, Optional.of(3000L));
        List<RunTimeline.Bar> bars = RunTimeline.bars(i, List.of(attempt(2, 3000, 3400, "succeeded"),
                attempt(1, 1200, 1500, "retry")), 1000);
        assertThat(shape(bars)).containsExactly(
                "queue:1:1000-1200:queued", "run:1:1200-1500:retry", "wait:2:1500-3000:waiting", "run:2:3000-3400:succeeded");
        assertThat(bars.get(1).error()).contains("boom 1");
    }

    @Test
    void aRunningAttemptAndAPendingOneAreOpenBars() {
        TaskInstance running = instance(0, InstanceStatus.RUNNING, 2, 1600, Optional.of(1700L));
        assertThat(shape(RunTimeline.bars(running, List.of(attempt(1, 1100, 1500, "retry")), 1000))).containsExactly(
                "queue:1:1000-1100:queued", "run:1:1100-1500:retry", "wait:2:1500-1700:waiting", "run:2:1700-now:running");

        TaskInstance pending = instance(0, InstanceStatus.PENDING, 0, 1000, Optional.empty());
        assertThat(shape(RunTimeline.bars(pending, List.of(), 900))).containsExactly("queue:1:900-now:pending");

        TaskInstance waiting = instance(0, InstanceStatus.WAITING, 1, 1000, Optional.empty());
        assertThat(shape(RunTimeline.bars(waiting, List.of(attempt(1, 1000, 1200, "retry")), 900))).containsExactly(
                "queue:1:900-1000:queued", "run:1:1000-1200:retry", "wait:2:1200-now:waiting");
    }

    @Test
    void aRerunWaitsFromItsDispatchUnlessItWasDispatchedAgain() {
        TaskInstance once = instance(1, InstanceStatus.SUCCEEDED, 1, 5000, Optional.of(5200L));
        assertThat(shape(RunTimeline.bars(once, List.of(attempt(1, 5200, 5300, "succeeded")), 1000))).containsExactly(
                "queue:1:5000-5200:queued", "run:1:5200-5300:succeeded");

        // dispatched again for its second attempt: when it was first dispatched is not kept, so no first wait
        TaskInstance twice = instance(1, InstanceStatus.FAILED, 2, 5600, Optional.of(5700L));
        assertThat(shape(RunTimeline.bars(twice, List.of(attempt(1, 5200, 5300, "retry"), attempt(2, 5700, 5800, "failed")),
                1000))).containsExactly("run:1:5200-5300:retry", "wait:2:5300-5700:waiting", "run:2:5700-5800:failed");
    }
}
