package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.task.TaskStep;
import java.util.List;
import java.util.Map;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

class StepTraceTest {
    @Test
    void theLegsOfAnEdgeFollowOneAnotherAndAddUpToIt() {
        StepTrace trace = StepTrace.start();
        for (TaskStep.Kind k : TaskStep.Kind.values()) {
            TaskStep.reached(k, "g", "r0", "n0");
        }
        for (TaskStep.Kind k : TaskStep.Kind.values()) {
            TaskStep.reached(k, "g", "r0", "n1");
            TaskStep.reached(k, "other", "r0", "n1");
        }
        StepTrace.Steps steps = trace.stop("g");

        Map<String, Dist> legs = StepTrace.emptyLegs();
        EdgeTail tail = StepTrace.emptyTail();
        steps.addLegs(List.of("n0", "n1"), "r0", Map.of("n1", "n0"), legs, tail);

        assertThat(legs.get("finished_to_claimed").count()).isEqualTo(1);
        assertThat(legs.get("hand_off").count()).isEqualTo(2);
        double sum = StepTrace.EDGE_LEGS.stream().skip(1).mapToDouble(l -> legs.get(l.key()).meanMs()).sum();
        assertThat(sum).isCloseTo(legs.get("finished_to_claimed").meanMs(), org.assertj.core.data.Offset.offset(0.01));
        assertThat(steps.byPartition()).containsOnlyKeys("r0");
        assertThat(tail.edges()).isEqualTo(1);
        EdgeTail.Summary one = tail.summarize(99);
        assertThat(one.tailLegMeanMs().values().stream().mapToDouble(Double::doubleValue).sum())
                .isCloseTo(legs.get("finished_to_claimed").meanMs(), org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void anotherRecordingOfTheSameRunDoesNotConfuseTheTrace() throws Exception {
        // a profile taken meanwhile puts its own events into the trace's dump
        try (Recording profile = new Recording(Configuration.getConfiguration("profile"))) {
            profile.start();
            StepTrace trace = StepTrace.start();
            TaskStep.reached(TaskStep.Kind.FINISHED, "g", "r0", "n0");
            StepTrace.Steps steps = trace.stop("g");

            assertThat(steps.byPartition().get("r0").get("n0")).containsOnlyKeys(TaskStep.Kind.FINISHED);
        }
    }
}
