package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GroupCommitTest {
    private final ExecutorService threads = Executors.newFixedThreadPool(8);
    private final List<List<Integer>> sent = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    /** Sends alone after the test releases it, so the calls that arrive meanwhile queue behind it. */
    private Integer aloneBlocked(Integer r) {
        sent.add(List.of(r));
        try {
            if (!release.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return r * 10;
    }

    /** Negative requests fail on their own; the others answer ten times themselves. */
    private List<Supplier<Integer>> together(List<Integer> batch) {
        sent.add(batch);
        List<Supplier<Integer>> out = new ArrayList<>();
        for (Integer r : batch) {
            out.add(r < 0 ? () -> {
                throw new IllegalArgumentException("bad " + r);
            } : () -> r * 10);
        }
        return out;
    }

    @Test
    void aCallOnItsOwnGoesAtOnceAlone() {
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(r -> r * 10, this::together);
        assertThat(commit.call(4)).isEqualTo(40);
        assertThat(sent).isEmpty();
    }

    @Test
    void callsArrivingWhileABatchIsOutGoTogetherNextEachWithItsOwnOutcome() throws Exception {
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(this::aloneBlocked, this::together);
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> commit.call(1), threads);
        await().atMost(Duration.ofSeconds(10)).until(() -> sent.size() == 1);
        List<CompletableFuture<Integer>> later = new ArrayList<>();
        for (int r : new int[] {2, 3, -4, 5}) {
            later.add(CompletableFuture.supplyAsync(() -> commit.call(r), threads));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> commit.queued() == 4);
        release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(10);
        assertThat(later.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(20);
        assertThat(later.get(1).get(10, TimeUnit.SECONDS)).isEqualTo(30);
        assertThatThrownBy(() -> later.get(2).join()).hasRootCauseMessage("bad -4");
        assertThat(later.get(3).get(10, TimeUnit.SECONDS)).isEqualTo(50);
        assertThat(sent).hasSize(2);
        assertThat(sent.get(1)).containsExactlyInAnyOrder(2, 3, -4, 5);
        // the first batch's end woke only the one who sent the next; the other three slept until it was back
        assertThat(commit.idleWakeUps()).isZero();
    }

    @Test
    void manyCallersEachGetTheirOwnOutcomeAndNoneIsLeftWaiting() throws Exception {
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(r -> r * 10, this::together);
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        for (int r = 1; r <= 4_000; r++) {
            int request = r;
            calls.add(CompletableFuture.supplyAsync(() -> commit.call(request), threads));
        }

        for (int r = 1; r <= 4_000; r++) {
            assertThat(calls.get(r - 1).get(30, TimeUnit.SECONDS)).isEqualTo(r * 10);
        }
        assertThat(commit.queued()).isZero();
        assertThat(commit.idleWakeUps()).isZero();
    }

    @Test
    void aFailedRoundTripFailsEveryCallOfItsBatchAndTheNextBatchGoesOn() throws Exception {
        CountDownLatch out = new CountDownLatch(1);
        List<Integer> calls = new CopyOnWriteArrayList<>();
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(r -> {
            calls.add(r);
            if (r == 1) {
                out.countDown();
                aloneBlocked(r);
                throw new IllegalStateException("redis down");
            }
            return r * 10;
        }, batch -> {
            throw new IllegalStateException("redis down for " + batch.size());
        });
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> commit.call(1), threads);
        assertThat(out.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> commit.call(2), threads);
        CompletableFuture<Integer> third = CompletableFuture.supplyAsync(() -> commit.call(3), threads);
        await().atMost(Duration.ofSeconds(10)).until(() -> commit.queued() == 2);
        release.countDown();

        assertThatThrownBy(first::join).hasRootCauseMessage("redis down");
        assertThatThrownBy(second::join).hasRootCauseMessage("redis down for 2");
        assertThatThrownBy(third::join).hasRootCauseMessage("redis down for 2");
        // nothing is left waiting: the next call goes alone again
        assertThat(commit.call(6)).isEqualTo(60);
    }
}
