package io.swale.operator;

import static io.swale.operator.TestAttempts.attempt;
import static io.swale.operator.TestAttempts.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Programs started while others run each end when they end, and a killed shell never runs the command after
 * the one it was waiting for.
 */
class ConcurrentProgramsTest {
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aCancelledShellDoesNotRunItsNextCommand(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path started = dir.resolve("started");
        java.nio.file.Path done = dir.resolve("done");
        Cancellation cancellation = new Cancellation();
        CompletableFuture<OperatorResult> run = CompletableFuture.supplyAsync(() -> new ShellOperator().execute(
                attempt(object("{\"command\": \"touch '" + started + "'; sleep 1.5; touch '" + done + "'\"}"))
                        .cancellation(cancellation).build()));
        await().atMost(Duration.ofSeconds(10)).until(() -> java.nio.file.Files.exists(started));
        cancellation.cancel("stop");
        assertThat(run.get()).isInstanceOf(OperatorResult.TransientError.class);
        // past the moment the sleep would have ended, the next command has still not run
        await().during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(3))
                .until(() -> !java.nio.file.Files.exists(done));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void overlappingProgramsEachEndOnTime() throws Exception {
        ShellOperator shell = new ShellOperator();
        // warm up: the first run loads and initialises everything on its way
        assertThat(shell.execute(attempt(object("{\"command\": \"printf '{}'\"}")).build()))
                .isInstanceOf(OperatorResult.Succeeded.class);
        List<CompletableFuture<Long>> runs = new ArrayList<>();
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(6);
        var threads = java.util.concurrent.Executors.newFixedThreadPool(6);
        for (int i = 0; i < 6; i++) {
            int seconds = 1 + i % 3;
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    together.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                long t0 = System.nanoTime();
                OperatorResult r = shell.execute(attempt(object(
                        "{\"command\": \"sleep " + seconds + "; printf '{}'\"}")).build());
                assertThat(r).isInstanceOf(OperatorResult.Succeeded.class);
                return (System.nanoTime() - t0) / 1_000_000 - seconds * 1_000L;
            }, threads));
        }
        for (CompletableFuture<Long> r : runs) {
            assertThat(r.get()).as("time beyond the program's own sleep").isBetween(-100L, 700L);
        }
        threads.shutdown();
    }
}
