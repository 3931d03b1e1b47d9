package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.operator.Cancellation;
import io.swale.store.RunKey;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A store that does not answer (a network that drops packets rather than refusing them) holds every heartbeat
 * call, and so the ticker's threads. Each attempt is still stopped once its lease may have ended: the reaper hands
 * the instance to another worker then, and the two copies must not overlap.
 */
class LeaseDeadlineTest {
    private static final LeaseKeeper.Timing TIMING =
            new LeaseKeeper.Timing(Duration.ofMillis(800), Duration.ofMillis(200), Duration.ofMillis(50));

    @Test
    void everyAttemptIsStoppedAtItsLeasesEndWhileTheHeartbeatsHang() throws Exception {
        CountDownLatch answer = new CountDownLatch(1);
        AtomicLong calls = new AtomicLong();
        FakeTaskStore hanging = new FakeTaskStore(new AtomicLong(), TIMING.lease()) {
            @Override
            public Heartbeat heartbeat(RunKey key, String runId, long t, long leaseMs) {
                calls.incrementAndGet();
                try {
                    answer.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Heartbeat.RUNNING;
            }
        };
        ScheduledThreadPoolExecutor ticker = new ScheduledThreadPoolExecutor(2);
        RecordingMetrics metrics = new RecordingMetrics();
        LeaseKeeper keeper = new LeaseKeeper(hanging, ticker, TIMING, metrics);
        List<Cancellation> attempts = new ArrayList<>();
        List<LeaseKeeper.Lease> leases = new ArrayList<>();
        try {
            for (int i = 0; i < 6; i++) {
                Cancellation c = new Cancellation();
                attempts.add(c);
                TaskIdentity id = new TaskIdentity("g", Partition.of("p"), "n" + i, Optional.empty(), "d", 0);
                leases.add(keeper.keep(id, hanging.token, "gpu", System.nanoTime(), c));
            }
            // both ticker threads wait in a heartbeat; four leases get no tick at all
            await().atMost(Duration.ofSeconds(10)).until(() -> calls.get() >= 2);

            await().atMost(Duration.ofSeconds(10)).until(() -> attempts.stream().allMatch(Cancellation::isCancelled));
            assertThat(calls.get()).as("no tick got past its heartbeat").isEqualTo(2);
            // the two whose heartbeat hangs were not extended, naming why; the others' ticker never ran
            assertThat(attempts).filteredOn(c -> c.isCancelledFor(CancelReason.LEASE_NOT_EXTENDED)).hasSize(2);
            assertThat(attempts).filteredOn(c -> c.isCancelledFor(CancelReason.CLAIM_LOST)).hasSize(4);
            assertThat(leases).filteredOn(l -> l.lastFailure().startsWith("the store has not answered a heartbeat"))
                    .hasSize(2);
            assertThat(metrics.count("lease-lost gpu")).isEqualTo(6);
            assertThat(leases).noneMatch(LeaseKeeper.Lease::holds);
        } finally {
            answer.countDown();
            ticker.shutdownNow();
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aLeaseClosedWhenItsAttemptEndedIsNotReportedLost() throws Exception {
        FakeTaskStore store = new FakeTaskStore(new AtomicLong(), TIMING.lease());
        ScheduledThreadPoolExecutor ticker = new ScheduledThreadPoolExecutor(1);
        RecordingMetrics metrics = new RecordingMetrics();
        LeaseKeeper keeper = new LeaseKeeper(store, ticker, TIMING, metrics);
        Cancellation attempt = new Cancellation();
        try {
            long claimed = System.nanoTime();
            keeper.keep(new TaskIdentity("g", Partition.of("p"), "n", Optional.empty(), "d", 0), store.token, "gpu",
                    claimed, attempt).close();
            // past the end the lease had when it was closed, and then some
            await().pollDelay(Duration.ofMillis(1200)).atMost(Duration.ofSeconds(5))
                    .until(() -> System.nanoTime() - claimed > TIMING.lease().toNanos() * 3 / 2);
            assertThat(attempt.isCancelled()).isFalse();
            assertThat(metrics.count("lease-lost gpu")).isZero();
        } finally {
            ticker.shutdownNow();
        }
    }
}
