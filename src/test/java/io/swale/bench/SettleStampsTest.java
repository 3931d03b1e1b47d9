package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.task.SwaleMetrics;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SettleStampsTest {

    @Test
    void aSettleIsStampedForItsGraphAndStillCounted() {
        List<String> counted = new ArrayList<>();
        SwaleMetrics service = new SwaleMetrics() {
            @Override
            public void runSettled(String graph, String state) {
                counted.add(graph + ":" + state);
            }
        };
        SettleStamps stamps = new SettleStamps();
        SwaleMetrics wrapped = (SwaleMetrics) stamps.recorder().postProcessAfterInitialization(service, "swaleMetrics");
        long before = SettleStamps.nowUs();

        wrapped.runSettled("g", "complete");
        wrapped.runStarted("h");

        assertThat(counted).containsExactly("g:complete");
        assertThat(stamps.settledSince("g", before)).hasValueSatisfying(us -> assertThat(us).isBetween(before,
                SettleStamps.nowUs()));
        assertThat(stamps.settledSince("h", before)).as("a start is no settle").isEmpty();
        assertThat(stamps.settledSince("g", SettleStamps.nowUs() + 1_000_000)).as("settled before that").isEmpty();
        assertThat(stamps.recorder().postProcessAfterInitialization("other bean", "x")).isEqualTo("other bean");
        // a settle reported after the bench saw its record is waited for, briefly
        long later = SettleStamps.nowUs() + 1;
        Thread reporter = Thread.ofVirtual().start(() -> {
            java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
            wrapped.runSettled("g", "complete");
        });
        assertThat(stamps.awaitSettledSince("g", later, 10_000)).hasValueSatisfying(us ->
                assertThat(us).isGreaterThanOrEqualTo(later));
        assertThat(stamps.awaitSettledSince("h", later, 1)).isEmpty();
    }

    /** A method the wrapper did not pass on would drop its metric silently in every bench. */
    @Test
    void everyMetricIsPassedOn() {
        SwaleMetrics wrapped = (SwaleMetrics) new SettleStamps().recorder()
                .postProcessAfterInitialization(SwaleMetrics.NONE, "swaleMetrics");
        for (java.lang.reflect.Method m : SwaleMetrics.class.getDeclaredMethods()) {
            if (!java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                assertThat(java.util.Arrays.stream(wrapped.getClass().getDeclaredMethods())
                        .anyMatch(w -> w.getName().equals(m.getName())
                                && java.util.Arrays.equals(w.getParameterTypes(), m.getParameterTypes())))
                        .as(m.getName()).isTrue();
            }
        }
    }
}
