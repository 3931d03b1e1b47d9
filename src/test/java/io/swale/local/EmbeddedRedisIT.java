package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The redis-server of local mode, started on a thread of its own: its address is known at once, a failed start
 * is reported with redis-server's own reason, and close stops it even while it is still starting.
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
            assertThat(serverProcesses(port)).isEqualTo(1);
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

    /** Live child processes of this JVM that are redis-server on {@code port} (its title, in /proc, shows it). */
    private static long serverProcesses(int port) {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(p -> title(p).contains("127.0.0.1:" + port)).count();
    }

    private static String title(ProcessHandle p) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
        } catch (IOException gone) {
            return "";
        }
    }

    private static void awaitNothingServes(int port) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThatThrownBy(() -> {
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.getOutputStream().write("PING\r\n".getBytes());
            }
        }).isInstanceOf(IOException.class));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
