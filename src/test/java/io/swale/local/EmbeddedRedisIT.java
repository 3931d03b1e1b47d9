package io.swale.local;

import static io.swale.local.ExitChild.answers;
import static io.swale.local.ExitChild.anyServerProcess;
import static io.swale.local.ExitChild.awaitNothingServes;
import static io.swale.local.ExitChild.freePort;
import static io.swale.local.ExitChild.title;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The redis-server of local mode, started on a thread of its own: its address is known at once, a failed start
 * is reported with redis-server's own reason, close stops it even while it is still starting, and at the JVM's exit
 * it serves until its owner closes it, and stops with the JVM that dies without closing it.
 */
class EmbeddedRedisIT {

    @Test
    void servesAtTheAddressKnownUpFrontAndStopsOnClose() throws IOException {
        int port = freePort();
        try (EmbeddedRedis redis = EmbeddedRedis.starting(port)) {
            assertThat(redis.address()).isEqualTo("127.0.0.1:" + port);
            redis.awaitStarted();
            try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                assertThat(jedis.ping()).isEqualTo("PONG");
            }
            assertThat(serverProcesses(port)).as("the server (and its script) are this JVM's children").isPositive();
        }
        awaitNothingServes(port);
        await().atMost(Duration.ofSeconds(30)).until(() -> serverProcesses(port) == 0);
    }

    @Test
    void aStartThatFailsIsReportedNamingRedisServerAndItsReason() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = taken.getLocalPort();
            EmbeddedRedis redis = EmbeddedRedis.starting(port);
            assertThatThrownBy(redis::awaitStarted).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot start the embedded redis-server at 127.0.0.1:" + port)
                    .hasMessageContaining("ddress already in use");
            assertThatCode(redis::close).doesNotThrowAnyException();
        }
    }

    @Test
    void closeWhileStillStartingStopsTheServer() throws IOException {
        int port = freePort();
        EmbeddedRedis redis = EmbeddedRedis.starting(port);
        redis.close(); // at once: most likely while the binary is still being found or extracted
        awaitNothingServes(port);
        await().atMost(Duration.ofSeconds(30)).until(() -> serverProcesses(port) == 0);
    }

    @Test
    void atJvmExitTheServerServesUntilItsOwnerClosesIt() throws Exception {
        try (ExitChild child = ExitChild.start(EmbeddedRedisExitMain.class, "hook-closes")) {
            child.awaitLine("ready");
            child.interruptGroup();
            child.awaitLine("draining");
            // the JVM's other hooks run meanwhile: embedded-redis stopped the server in one of its own
            await("the server serves while the service drains").during(Duration.ofMillis(500))
                    .atMost(Duration.ofSeconds(10)).until(() -> answers(child.port()));
            child.endDrain();
            child.awaitExit();
            assertThat(child.lines()).as("the child's output").contains("at exit: PONG", "closed");
            awaitNothingServes(child.port());
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(child.port()) == 0);
        }
    }

    @Test
    void atJvmExitAServerNobodyClosesStopsWithTheJvm() throws Exception {
        try (ExitChild child = ExitChild.start(EmbeddedRedisExitMain.class, "nobody-closes")) {
            child.awaitLine("ready");
            child.interruptGroup();
            child.awaitExit();
            awaitNothingServes(child.port());
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(child.port()) == 0);
        }
    }

    @Test
    void aServerWhoseJvmIsKilledStopsWithIt() throws Exception {
        try (ExitChild child = ExitChild.start(EmbeddedRedisExitMain.class, "is-killed")) {
            child.awaitLine("ready");
            assertThat(answers(child.port())).as("the server answers before the kill").isTrue();
            child.jvm().destroyForcibly(); // SIGKILL: no shutdown hook runs, as after the OOM killer
            assertThat(child.jvm().waitFor(30, TimeUnit.SECONDS)).as("the child JVM died").isTrue();
            awaitNothingServes(child.port());
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(child.port()) == 0);
        }
    }

    @Test
    void aJvmThatClosedItsServerExitsAndLeavesNoServer() throws Exception {
        try (ExitChild child = ExitChild.start(EmbeddedRedisExitMain.class, "closes-then-exits")) {
            child.awaitExit();
            assertThat(child.lines()).as("the child's output").contains("ready", "closed");
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(child.port()) == 0);
        }
    }

    /** Live child processes of this JVM that are a redis-server on {@code port}, or its script. */
    private static long serverProcesses(int port) {
        return ProcessHandle.current().descendants().filter(p -> ExitChild.isServerOn(p, port)).count();
    }
}
