package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The redis-server of local mode, started on a thread of its own: its address is known at once, a failed start
 * is reported with redis-server's own reason, close stops it even while it is still starting, and at the JVM's exit
 * it serves until its owner closes it.
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

    @Test
    void atJvmExitTheServerServesUntilItsOwnerClosesIt() throws Exception {
        try (Child child = Child.start("hook-closes")) {
            child.awaitLine("ready");
            child.interruptGroup();
            child.awaitLine("draining");
            // the JVM's other hooks run meanwhile, embedded-redis's own stop among them before this change
            await("the server serves while the service drains").during(Duration.ofMillis(500))
                    .atMost(Duration.ofSeconds(10)).until(() -> answers(child.port));
            child.endDrain();
            child.awaitExit();
            assertThat(child.lines).as("the child's output").contains("at exit: PONG", "closed");
            awaitNothingServes(child.port);
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(child.port) == 0);
        }
    }

    @Test
    void atJvmExitAServerNobodyClosesStopsAfterItsExitWait() throws Exception {
        try (Child child = Child.start("nobody-closes")) {
            child.awaitLine("ready");
            child.interruptGroup();
            child.awaitExit();
            awaitNothingServes(child.port);
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(child.port) == 0);
        }
    }

    @Test
    void aJvmThatClosedItsServerExitsWithoutTheExitWait() throws Exception {
        // the exit wait is 10 minutes: the child exits well within the 90 s allowed only if close ended it
        try (Child child = Child.start("closes-then-exits")) {
            child.awaitExit();
            assertThat(child.lines).as("the child's output").contains("ready", "closed");
            await().atMost(Duration.ofSeconds(30)).until(() -> anyServerProcess(child.port) == 0);
        }
    }

    /** {@link EmbeddedRedisExitMain} in a JVM of its own, in a process group of its own (setsid). */
    private record Child(Process jvm, int port, List<String> lines, Thread reader) implements AutoCloseable {
        static Child start(String mode) throws IOException {
            int port = freePort();
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Process jvm = new ProcessBuilder("setsid", java.toString(), "-cp", System.getProperty("java.class.path"),
                    EmbeddedRedisExitMain.class.getName(), Integer.toString(port), mode).redirectErrorStream(true)
                    .start();
            List<String> lines = new CopyOnWriteArrayList<>();
            Thread reader = Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader out = jvm.inputReader()) {
                    out.lines().forEach(lines::add);
                } catch (IOException e) {
                    lines.add("output: " + e);
                }
            });
            return new Child(jvm, port, lines, reader);
        }

        void awaitLine(String line) {
            await().atMost(Duration.ofSeconds(60)).until(() -> lines.contains(line) || !jvm.isAlive());
            assertThat(lines).as("the child's output").contains(line);
        }

        /** SIGINT to the whole group, as Ctrl-C in a terminal: the JVM's shutdown hooks run together. */
        void interruptGroup() throws IOException, InterruptedException {
            assertThat(new ProcessBuilder("kill", "-INT", "--", "-" + jvm.pid()).start().waitFor()).isZero();
        }

        /** A line on the child's input: its shutdown hook goes on. */
        void endDrain() throws IOException {
            jvm.getOutputStream().write('\n');
            jvm.getOutputStream().flush();
        }

        void awaitExit() throws InterruptedException {
            assertThat(jvm.waitFor(90, TimeUnit.SECONDS)).as("the child exited; its output: %s", lines).isTrue();
            reader.join(Duration.ofSeconds(10));
        }

        @Override
        public void close() {
            jvm.descendants().forEach(ProcessHandle::destroyForcibly);
            jvm.destroyForcibly();
        }
    }

    private static boolean answers(int port) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Live redis-server processes on {@code port} anywhere (a child of an exited JVM is no longer its descendant). */
    private static long anyServerProcess(int port) {
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> title(p).contains("127.0.0.1:" + port)).count();
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
