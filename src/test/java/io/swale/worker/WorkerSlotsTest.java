package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.operator.Cancellation;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkerSlotsTest {
    private static WorkerSlots.Running running(String node) {
        // the slots never look at the claim
        return new WorkerSlots.Running(new TaskIdentity("g", Partition.of("p"), node, Optional.empty(), "d", 0),
                null, 0, new Cancellation());
    }

    @Test
    void reservesNoMoreThanTheFreeSlotsAndTakesBackWhatIsUnused() throws Exception {
        WorkerSlots slots = new WorkerSlots("t", 3, r -> { });
        try {
            assertThat(slots.reserve(5, 0)).isEqualTo(3);
            assertThat(slots.free()).isZero();
            assertThat(slots.reserve(1, 0)).isZero();
            slots.unreserve(2);
            assertThat(slots.free()).isEqualTo(2);
        } finally {
            slots.close();
        }
    }

    @Test
    void anEndedAttemptFreesItsSlotAndSaysSo() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch freed = new CountDownLatch(1);
        WorkerSlots slots = new WorkerSlots("t", 1, r -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        slots.onFreed(freed::countDown);
        try {
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            WorkerSlots.Running attempt = running("n1");
            slots.run(attempt);
            assertThat(slots.running()).isEqualTo(1);
            assertThat(slots.inFlight()).containsExactly(attempt);
            release.countDown();
            assertThat(freed.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(slots.free()).isEqualTo(1);
            assertThat(slots.running()).isZero();
        } finally {
            slots.close();
        }
    }

    @Test
    void drainingReservesNothingAndAnnouncesNoFreedSlot() throws Exception {
        AtomicInteger freed = new AtomicInteger();
        WorkerSlots slots = new WorkerSlots("t", 2, r -> { });
        slots.onFreed(freed::incrementAndGet);
        assertThat(slots.reserve(1, 0)).isEqualTo(1);
        slots.beginDrain();
        assertThat(slots.reserve(1, 1_000)).isZero();
        slots.run(running("n1"));
        slots.awaitEnd(Duration.ofSeconds(5));
        assertThat(slots.running()).isZero();
        assertThat(freed).hasValue(0);
        slots.close();
    }
}
