package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LostSendRepairTest {
    private final AtomicBoolean answers = new AtomicBoolean();
    private final AtomicInteger probes = new AtomicInteger();
    private final List<String> passes = new CopyOnWriteArrayList<>();
    /** When each probe ran: a pass starts right after its probe answers. */
    private final List<Long> probeNanos = new CopyOnWriteArrayList<>();
    private LostSendRepair repair;

    private LostSendRepair repair(Duration spacing) {
        repair = new LostSendRepair(() -> {
            probes.incrementAndGet();
            probeNanos.add(System.nanoTime());
            return answers.get();
        }, passes::add, spacing, Duration.ofMillis(10));
        return repair;
    }

    @AfterEach
    void close() {
        if (repair != null) {
            repair.close();
        }
    }

    @Test
    void noPassWhileKafkaIsAwayAndOnePassForEveryLossOnceItAnswers() {
        LostSendRepair r = repair(Duration.ZERO);
        for (int i = 0; i < 100; i++) {
            r.lost(i % 2 == 0 ? "dispatch" : "event", new RuntimeException("Expiring 1 record(s)"));
        }
        await().until(() -> probes.get() >= 5);
        assertThat(passes).as("asked while Kafka did not answer").isEmpty();

        answers.set(true);
        await().until(() -> !passes.isEmpty());
        assertThat(passes.getFirst()).isEqualTo("Kafka answers again (lost sends: 100)");
    }

    @Test
    void aLossAfterAPassAsksForAnotherOnlyAfterTheSpacing() {
        answers.set(true);
        Duration spacing = Duration.ofMillis(300);
        LostSendRepair r = repair(spacing);
        r.lost("dispatch", new RuntimeException("lost"));
        await().until(() -> passes.size() == 1);
        r.lost("event", new RuntimeException("lost"));
        await().until(() -> passes.size() == 2);
        assertThat(passes.get(1)).isEqualTo("Kafka answers again (lost sends: 1)");
        assertThat(probeNanos).hasSize(2);
        assertThat(probeNanos.get(1) - probeNanos.get(0)).isGreaterThanOrEqualTo(spacing.toNanos());
    }

    @Test
    void aProbeThatThrowsCountsAsKafkaAway() {
        repair = new LostSendRepair(() -> {
            if (probes.incrementAndGet() < 3) {
                throw new KafkaInspector.KafkaQueryException("timed out", new RuntimeException());
            }
            return true;
        }, passes::add, Duration.ZERO, Duration.ofMillis(10));
        repair.lost("dispatch", new RuntimeException("lost"));
        await().until(() -> !passes.isEmpty());
        assertThat(probes.get()).isEqualTo(3);
    }

    @Test
    void aLossAfterCloseIsIgnored() {
        answers.set(true);
        LostSendRepair r = repair(Duration.ZERO);
        r.close();
        r.lost("dispatch", new RuntimeException("lost"));
        assertThat(probes.get()).isZero();
        assertThat(passes).isEmpty();
    }

    @Test
    void refusesANegativeSpacingOrANonPositiveProbeInterval() {
        assertThatThrownBy(() -> new LostSendRepair(() -> true, f -> { }, Duration.ofSeconds(-1), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LostSendRepair(() -> true, f -> { }, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
