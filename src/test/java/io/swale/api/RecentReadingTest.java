package io.swale.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class RecentReadingTest {
    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger reads = new AtomicInteger();

    @Test
    void aReadingIsSharedUntilItIsOlderThanTheMaximumAge() {
        RecentReading<Integer> reading = new RecentReading<>(reads::incrementAndGet, Duration.ofSeconds(1), now::get);
        assertThat(reading.get()).isEqualTo(1);
        now.set(Duration.ofMillis(999).toNanos());
        assertThat(reading.get()).isEqualTo(1);
        now.set(Duration.ofSeconds(1).toNanos());
        assertThat(reading.get()).isEqualTo(2);
        assertThat(reads).hasValue(2);
    }

    @Test
    void aMaximumAgeOfZeroReadsEveryTime() {
        RecentReading<Integer> reading = new RecentReading<>(reads::incrementAndGet, Duration.ZERO, now::get);
        reading.get();
        reading.get();
        assertThat(reads).hasValue(2);
    }

    @Test
    void aFailedReadingIsNotKept() {
        RecentReading<Integer> reading = new RecentReading<>(() -> {
            if (reads.incrementAndGet() == 1) {
                throw new IllegalStateException("the store did not answer");
            }
            return reads.get();
        }, Duration.ofSeconds(1), now::get);
        assertThatThrownBy(reading::get).hasMessageContaining("did not answer");
        assertThat(reading.get()).isEqualTo(2);
    }

    /** A reading that waits for {@code release}, and fails instead of answering when {@code fail} is set. */
    private RecentReading<Integer> held(CountDownLatch reading, CountDownLatch release, boolean fail) {
        return new RecentReading<>(() -> {
            reading.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            reads.incrementAndGet();
            if (fail) {
                throw new IllegalStateException("the store did not answer");
            }
            return reads.get();
        }, Duration.ofSeconds(1), now::get);
    }

    /** A reader on a thread of its own, returned once its reading is under way. */
    private static CompletableFuture<Integer> firstReader(RecentReading<Integer> recent, CountDownLatch reading)
            throws InterruptedException {
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(recent::get);
        assertThat(reading.await(5, TimeUnit.SECONDS)).isTrue();
        return first;
    }

    /** Starts {@code reader} on a thread of its own and returns once it waits (for the reading under way). */
    private static void startWaiting(Runnable reader) {
        Thread t = new Thread(reader);
        t.start();
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> t.getState() == Thread.State.WAITING);
    }

    @Test
    void readersThatAskWhileAReadingIsTakenShareItHoweverLongItTakes() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecentReading<Integer> recent = held(reading, release, false);
        CompletableFuture<Integer> first = firstReader(recent, reading);
        // the reading takes longer than the maximum age: the second reader still waits for it, not for a new one
        now.set(Duration.ofSeconds(5).toNanos());
        CompletableFuture<Integer> second = new CompletableFuture<>();
        startWaiting(() -> second.complete(recent.get()));
        release.countDown();
        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(reads).hasValue(1);
    }

    @Test
    void readersThatWaitedForAFailedReadingGetItsFailure() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecentReading<Integer> recent = held(reading, release, true);
        CompletableFuture<Integer> first = firstReader(recent, reading);
        CompletableFuture<Throwable> second = new CompletableFuture<>();
        startWaiting(() -> {
            try {
                recent.get();
                second.complete(null);
            } catch (RuntimeException e) {
                second.complete(e);
            }
        });
        release.countDown();
        assertThat(second.get(5, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("did not answer");
        assertThatThrownBy(() -> first.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(reads).hasValue(1);
    }

    @Test
    void aNegativeMaximumAgeIsRefused() {
        assertThatThrownBy(() -> new RecentReading<>(() -> 1, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }
}
