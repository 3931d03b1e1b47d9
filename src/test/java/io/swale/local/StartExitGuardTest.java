package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Who stops local mode's servers when: the guard at the JVM's exit until the context takes them over, the context
 * after. The JVM cannot exit here, so the tests call what the guard's shutdown hook runs.
 */
class StartExitGuardTest {

    /** Servers that only count their closes. */
    private static final class CountedServers implements EmbeddedServers {
        final AtomicInteger closes = new AtomicInteger();

        @Override
        public String kafkaBootstrap() {
            return "127.0.0.1:9";
        }

        @Override
        public int redisPort() {
            return 9;
        }

        @Override
        public void awaitRedis() {
        }

        @Override
        public void awaitKafka() {
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    @Test
    void anExitWhileTheServersAreStillStartingStopsThemOnceTheyAreHandedOver() throws InterruptedException {
        StartExitGuard guard = StartExitGuard.install();
        CountedServers servers = new CountedServers();
        Thread exit = exitWaitingForTheStart(guard);

        guard.guarding(servers);

        exit.join(Duration.ofSeconds(10));
        assertThat(exit.isAlive()).isFalse();
        assertThat(servers.closes).hasValue(1);
        assertThatThrownBy(guard::handOver).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shutting down");
    }

    @Test
    void afterTheHandOverTheExitLeavesTheServersToTheContext() {
        StartExitGuard guard = StartExitGuard.install();
        CountedServers servers = new CountedServers();
        guard.guarding(servers);

        guard.handOver();
        assertThatCode(guard::handOver).as("a second refresh's hand-over").doesNotThrowAnyException();
        guard.atExit();

        assertThat(servers.closes).hasValue(0);
        guard.closeServers(); // the context's close
        assertThat(servers.closes).hasValue(1);
    }

    @Test
    void aStartThatFailedBeforeTheHandOverStopsTheServersAndTheExitDoesNothingMore() {
        StartExitGuard guard = StartExitGuard.install();
        CountedServers servers = new CountedServers();
        guard.guarding(servers);

        guard.closeServers();
        guard.atExit();

        assertThat(servers.closes).hasValue(1);
    }

    @Test
    void aStartThatStartedNothingEndsTheExitsWaitAtOnce() throws InterruptedException {
        StartExitGuard guard = StartExitGuard.install();
        Thread exit = exitWaitingForTheStart(guard);

        guard.nothingStarted();

        exit.join(Duration.ofSeconds(10));
        assertThat(exit.isAlive()).as("the exit's wait, 60 s, ended with the failed start").isFalse();
    }

    /** The guard's exit hook, run on a thread of its own, once it waits for the start to hand it the servers. */
    private static Thread exitWaitingForTheStart(StartExitGuard guard) {
        Thread exit = Thread.ofPlatform().start(guard::atExit);
        await().atMost(Duration.ofSeconds(10)).until(() -> exit.getState() == Thread.State.TIMED_WAITING);
        return exit;
    }
}
