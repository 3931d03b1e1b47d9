package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import redis.clients.jedis.Jedis;

/**
 * A test's main class in a JVM of its own, in a process group of its own (setsid), given a free port and a mode; the
 * test reads its output lines, writes to its input, and signals its group as a terminal's Ctrl-C does.
 */
record ExitChild(Process jvm, int port, List<String> lines, Thread reader) implements AutoCloseable {
    static ExitChild start(Class<?> main, String mode) throws IOException {
        int port = freePort();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process jvm = new ProcessBuilder("setsid", java.toString(), "-cp", System.getProperty("java.class.path"),
                main.getName(), Integer.toString(port), mode).redirectErrorStream(true)
                .start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader out = jvm.inputReader()) {
                out.lines().forEach(lines::add);
            } catch (IOException e) {
                lines.add("output: " + e);
            }
        });
        return new ExitChild(jvm, port, lines, reader);
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
        awaitExit(Duration.ofSeconds(90));
    }

    void awaitExit(Duration within) throws InterruptedException {
        assertThat(jvm.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)).as("the child exited within %s; its last lines: %s",
                within, lines.subList(Math.max(0, lines.size() - 20), lines.size())).isTrue();
        reader.join(Duration.ofSeconds(10));
    }

    /** The port of the redis-server the child started itself, which it prints as {@code redis <port>}. */
    int reportedRedisPort() {
        return reportedRedisPorts().findFirst().orElseThrow(() -> new AssertionError(
                "the child printed no `redis <port>` line: " + lines));
    }

    private IntStream reportedRedisPorts() {
        return lines.stream().filter(line -> line.startsWith("redis ")).mapToInt(line -> Integer.parseInt(
                line.substring("redis ".length()).strip()));
    }

    /** Kills the child and what it started, and a redis-server (or its script) a failed test left behind. */
    @Override
    public void close() {
        jvm.descendants().forEach(ProcessHandle::destroyForcibly);
        jvm.destroyForcibly();
        IntStream.concat(IntStream.of(port), reportedRedisPorts())
                .forEach(p -> ProcessHandle.allProcesses().filter(h -> isServerOn(h, p))
                        .forEach(ProcessHandle::destroyForcibly));
    }

    static boolean answers(int port) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Live processes anywhere (a child of an exited JVM is no longer its descendant) of a redis-server on
     * {@code port}: the server, or the script it runs under and that script's watcher.
     */
    static long anyServerProcess(int port) {
        return ProcessHandle.allProcesses().filter(p -> isServerOn(p, port)).count();
    }

    /** Whether {@code p} is alive and is a redis-server on {@code port} (its title), or its script (its arguments). */
    static boolean isServerOn(ProcessHandle p, int port) {
        String title = title(p);
        return p.isAlive() && title.contains("redis-server")
                && (title.contains("127.0.0.1:" + port) || title.contains("--port\0" + port + "\0"));
    }

    /** A process's command line, from /proc: a redis-server's shows its address. */
    static String title(ProcessHandle p) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
        } catch (IOException gone) {
            return "";
        }
    }

    static void awaitNothingServes(int port) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThatThrownBy(() -> {
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.getOutputStream().write("PING\r\n".getBytes());
            }
        }).isInstanceOf(IOException.class));
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
