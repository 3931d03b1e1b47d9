package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.swale.task.ReconcilePass;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AfterFaultReconcileTest {
    private static final ReconcilePass NOTHING = new ReconcilePass(0, 0, 0, 0, 0, 0, 0, 0);

    @Test
    void requestsMadeWhileAPassRunsShareOneMorePass() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger passes = new AtomicInteger();
        AfterFaultReconcile reconcile = new AfterFaultReconcile(() -> {
            if (passes.incrementAndGet() == 1) {
                firstRunning.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return NOTHING;
        });
        reconcile.request("scheduler s1 died");
        assertThat(firstRunning.await(30, TimeUnit.SECONDS)).isTrue();
        reconcile.request("scheduler s2 died");
        reconcile.request("scheduler s3 died");
        reconcile.request("redis failover");
        release.countDown();

        // close lets what was asked for run, and no more
        reconcile.close();
        assertThat(passes.get()).isEqualTo(2);
    }

    @Test
    void aPassThatFailsLeavesTheNextRequestServed() {
        AtomicInteger passes = new AtomicInteger();
        try (AfterFaultReconcile reconcile = new AfterFaultReconcile(() -> {
            if (passes.incrementAndGet() == 1) {
                throw new IllegalStateException("redis down");
            }
            return NOTHING;
        })) {
            reconcile.request("events partitions taken over");
            await().atMost(Duration.ofSeconds(10)).until(() -> passes.get() == 1);
            reconcile.request("events partitions taken over");
            await().atMost(Duration.ofSeconds(10)).until(() -> passes.get() == 2);
        }
    }

    @Test
    void aRequestsFutureEndsWithThePassThatAnswersIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger passes = new AtomicInteger();
        try (AfterFaultReconcile reconcile = new AfterFaultReconcile(() -> {
            int n = passes.incrementAndGet();
            if (n == 1) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (n == 2) {
                throw new IllegalStateException("redis down");
            }
            return NOTHING;
        })) {
            var first = reconcile.request("scheduler s1 died");
            await().atMost(Duration.ofSeconds(10)).until(() -> passes.get() == 1);
            var second = reconcile.request("sends given up on (3)");
            var third = reconcile.request("redis failover");
            assertThat(third).as("requests made while a pass runs share the next one").isSameAs(second);
            release.countDown();
            first.get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).hasRootCauseMessage("redis down");
            reconcile.request("events partitions assigned").get(10, TimeUnit.SECONDS);
            assertThat(passes.get()).isEqualTo(3);
        }
    }

    @Test
    void aRequestAfterCloseEndsAtOnceUnanswered() {
        AfterFaultReconcile reconcile = new AfterFaultReconcile(() -> NOTHING);
        reconcile.close();
        assertThat(reconcile.request("sends given up on (1)")).isCompletedExceptionally();
    }
}
