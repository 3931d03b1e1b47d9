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
        try (WorkerSlots slots = new WorkerSlots("t", 3, (r, returned) -> { })) {
            assertThat(slots.reserve(5, 0)).isEqualTo(3);
            assertThat(slots.free()).isZero();
            assertThat(slots.reserve(1, 0)).isZero();
            slots.unreserve(2);
            assertThat(slots.free()).isEqualTo(2);
        }
    }

    @Test
    void anEndedAttemptFreesItsSlotAndSaysSo() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch freed = new CountDownLatch(1);
        // its operator never says it returned: the slot is freed when the attempt ends
        try (WorkerSlots slots = new WorkerSlots("t", 1, settlingUntil(release, 0))) {
            slots.onFreed(freed::countDown);
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            WorkerSlots.Running attempt = running("n1");
            slots.run(attempt);
            assertThat(slots.running()).isEqualTo(1);
            assertThat(slots.inFlight()).containsExactly(attempt);
            release.countDown();
            assertThat(freed.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(slots.free()).isEqualTo(1);
            assertThat(slots.running()).isZero();
        }
    }

    @Test
    void drainingReservesNothingAndAnnouncesNoFreedSlot() throws Exception {
        AtomicInteger freed = new AtomicInteger();
        try (WorkerSlots slots = new WorkerSlots("t", 2, (r, returned) -> { })) {
            slots.onFreed(freed::incrementAndGet);
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            slots.beginDrain();
            assertThat(slots.reserve(1, 1_000)).isZero();
            slots.run(running("n1"));
            slots.awaitEnd(Duration.ofSeconds(5));
            assertThat(slots.running()).isZero();
            assertThat(freed).hasValue(0);
        }
    }

    /** An attempt whose operator returns at once (saying so {@code calls} times), then settles until {@code settled} opens. */
    private static java.util.function.BiConsumer<WorkerSlots.Running, Runnable> settlingUntil(CountDownLatch settled,
            int calls) {
        return (r, returned) -> {
            for (int i = 0; i < calls; i++) {
                returned.run();
            }
            try {
                settled.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    /** Lets the attempt settle, then checks that the replica holds nothing and its one slot is free. */
    private static void settleAndExpectAllFree(CountDownLatch settled, WorkerSlots slots) {
        settled.countDown();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> slots.running() == 0);
        assertThat(slots.free()).isEqualTo(1);
    }

    @Test
    void anAttemptWhoseOperatorReturnedFreesItsSlotWhileItSettles() throws Exception {
        CountDownLatch settled = new CountDownLatch(1);
        CountDownLatch freed = new CountDownLatch(1);
        try (WorkerSlots slots = new WorkerSlots("t", 1, settlingUntil(settled, 1))) {
            slots.onFreed(freed::countDown);
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            WorkerSlots.Running first = running("n1");
            slots.run(first);
            assertThat(freed.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(slots.free()).isEqualTo(1);
            assertThat(slots.operatorsRunning()).isZero();
            // still on this replica until its result is written: a drain waits for it
            assertThat(slots.running()).isEqualTo(1);
            assertThat(slots.inFlight()).containsExactly(first);
            settleAndExpectAllFree(settled, slots);
        }
    }

    @Test
    void anAttemptWaitsOnItsSlotForASettlePlaceAndTheSettlePlaceComesBack() throws Exception {
        CountDownLatch firstSettled = new CountDownLatch(1);
        CountDownLatch secondSettled = new CountDownLatch(1);
        try (WorkerSlots slots = new WorkerSlots("t", 1, (r, returned) -> settlingUntil(
                    r.id().node().equals("n1") ? firstSettled : secondSettled, 1).accept(r, returned))) {
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
            assertThat(slots.operatorsRunning()).isEqualTo(1);
            firstSettled.countDown();
            // n1's settle place is n2's now, and n2's slot is free
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> slots.free() == 1 && slots.running() == 1);
            assertThat(slots.waitsForSettlePlace()).isFalse();
            assertThat(slots.operatorsRunning()).isZero();
            settleAndExpectAllFree(secondSettled, slots);
        }
    }

    @Test
    void sayingTwiceThatTheOperatorReturnedTakesOneSettlePlace() throws Exception {
        CountDownLatch settled = new CountDownLatch(1);
        try (WorkerSlots slots = new WorkerSlots("t", 1, settlingUntil(settled, 2))) {
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            slots.run(running("n1"));
            // a second place taken would leave none to wait for: the attempt would hang on its slot
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> slots.free() == 1);
            assertThat(slots.waitsForSettlePlace()).isFalse();
            settleAndExpectAllFree(settled, slots);
            // both places back: one attempt moves, and the next one moves too
            CountDownLatch again = new CountDownLatch(1);
            slots.onFreed(again::countDown);
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            slots.run(running("n2"));
            assertThat(again.await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aFailingListenerOfFreedSlotsDoesNotStopTheAttempt() throws Exception {
        CountDownLatch settledAfterwards = new CountDownLatch(1);
        try (WorkerSlots slots = new WorkerSlots("t", 1, (r, returned) -> {
                returned.run();
                settledAfterwards.countDown();
            })) {
            slots.onFreed(() -> {
                throw new IllegalStateException("the listener failed");
            });
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            slots.run(running("n1"));
            assertThat(settledAfterwards.await(5, TimeUnit.SECONDS)).isTrue();
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> slots.running() == 0);
            assertThat(slots.free()).isEqualTo(1);
        }
    }

    @Test
    void onceDrainingAnAttemptSettlesOnItsSlot() throws Exception {
        CountDownLatch returned = new CountDownLatch(1);
        CountDownLatch settled = new CountDownLatch(1);
        try (WorkerSlots slots = new WorkerSlots("t", 1, (r, operatorReturned) -> {
                operatorReturned.run();
                returned.countDown();
                settlingUntil(settled, 0).accept(r, operatorReturned);
            })) {
            assertThat(slots.reserve(1, 0)).isEqualTo(1);
            slots.beginDrain();
            slots.run(running("n1"));
            assertThat(returned.await(5, TimeUnit.SECONDS)).isTrue();
            // no settle place is taken, so a hand-over never waits behind a settle
            assertThat(slots.free()).isZero();
            assertThat(slots.operatorsRunning()).isEqualTo(1);
            settled.countDown();
            slots.awaitEnd(Duration.ofSeconds(5));
            assertThat(slots.running()).isZero();
            assertThat(slots.free()).isEqualTo(1);
        }
    }
}
