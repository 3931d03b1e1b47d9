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
import org.awaitility.Awaitility;
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

    /** An attempt that returns from its operator, then settles until {@code settled} opens. */
    private static java.util.function.Consumer<WorkerSlots.Running> settlingUntil(WorkerSlots[] slots,
            CountDownLatch settled) {
        return r -> {
            slots[0].operatorReturned(r);
            try {
                settled.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    @Test
    void anAttemptWhoseOperatorReturnedFreesItsSlotWhileItSettles() throws Exception {
        CountDownLatch settled = new CountDownLatch(1);
        CountDownLatch freed = new CountDownLatch(1);
        WorkerSlots[] holder = new WorkerSlots[1];
        WorkerSlots slots = new WorkerSlots("t", 1, settlingUntil(holder, settled));
        holder[0] = slots;
        slots.onFreed(freed::countDown);
        try {
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            WorkerSlots.Running first = running("n1");
            slots.run(first);
            assertThat(freed.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(slots.free()).isEqualTo(1);
            assertThat(slots.operatorsRunning()).isZero();
            // still on this replica until its result is written: a drain waits for it
            assertThat(slots.running()).isEqualTo(1);
            assertThat(slots.inFlight()).containsExactly(first);
            settled.countDown();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> slots.running() == 0);
            assertThat(slots.free()).isEqualTo(1);
        } finally {
            slots.close();
        }
    }

    @Test
    void anAttemptWaitsOnItsSlotForASettlePlace() throws Exception {
        CountDownLatch settled = new CountDownLatch(1);
        WorkerSlots[] holder = new WorkerSlots[1];
        WorkerSlots slots = new WorkerSlots("t", 1, settlingUntil(holder, settled));
        holder[0] = slots;
        try {
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            slots.run(running("n1"));
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> slots.free() == 1);
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            slots.run(running("n2"));
            // n2's operator returned, but the one settle place is n1's: n2 keeps its slot, so a slow store holds
            // the pool back instead of piling up results
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(slots::waitsForSettlePlace);
            assertThat(slots.free()).isZero();
            assertThat(slots.reserve(1, 0)).isZero();
            assertThat(slots.running()).isEqualTo(2);
            settled.countDown();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> slots.running() == 0);
            assertThat(slots.free()).isEqualTo(1);
        } finally {
            slots.close();
        }
    }
}
