package io.swale.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A redis-server child process without persistence, started and stopped by its owner alone. embedded-redis starts
 * one too, but also stops it from a JVM shutdown hook of its own, which runs alongside Spring's: on SIGTERM the
 * server went away while the service was still draining through it.
 */
final class RedisServerProcess {
    private static final Logger log = LoggerFactory.getLogger(RedisServerProcess.class);
    private static final String READY_LINE = "Ready to accept connections";
    /** How many of its last lines a failed start reports. */
    private static final int LINES_KEPT = 20;
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);
    /** The exit code of a process killed by SIGKILL. */
    private static final int KILLED = 128 + 9;

    private final Process process;

    private RedisServerProcess(Process process) {
        this.process = process;
    }

    /**
     * Runs {@code binary} on {@code host:port} and returns once it prints its ready line. Throws with its last
     * lines of output if it exits first (a port in use, a bad binary) or is not ready within {@code readyWithin}.
     */
    static RedisServerProcess start(Path binary, String host, int port, Duration readyWithin) throws IOException {
        List<String> command = List.of(binary.toString(), "--port", Integer.toString(port), "--bind", host,
                "--appendonly", "no", "--save", "");
        Process process = new ProcessBuilder(command).directory(binary.getParent().toFile()).redirectErrorStream(true)
                .start();
        AtomicBoolean ready = new AtomicBoolean();
        CompletableFuture.delayedExecutor(readyWithin.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            if (!ready.get()) {
                process.destroyForcibly();
            }
        });
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Deque<String> last = new ArrayDeque<>();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.contains(READY_LINE)) {
                ready.set(true);
                drain(out, port);
                return new RedisServerProcess(process);
            }
            if (last.size() == LINES_KEPT) {
                last.removeFirst();
            }
            last.addLast(line);
        }
        // the output ends when the server exits, or when it was killed for not being ready in time
        boolean exited = exited(process);
        if (!exited) {
            process.destroyForcibly();
        }
        String why = exited && process.exitValue() != KILLED ? "exited with code " + process.exitValue()
                : "was not ready within " + readyWithin.toSeconds() + " s";
        throw new IOException("redis-server " + why + ": " + String.join(" | ", last));
    }

    private static boolean exited(Process process) {
        try {
            return process.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return false;
        }
    }

    /** Reads what the server prints from now on, so that a full pipe never blocks it. */
    private static void drain(BufferedReader out, int port) {
        Thread t = new Thread(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    log.debug("redis-server: {}", line);
                }
            } catch (IOException e) {
                log.debug("redis-server output closed: {}", e.toString());
            }
        }, "swale-embedded-redis-" + port + "-output");
        t.setDaemon(true);
        t.start();
    }

    long pid() {
        return process.pid();
    }

    /** SIGTERM, and SIGKILL if it has not exited within {@link #STOP_WAIT}; returns once it has exited. */
    void stop() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
