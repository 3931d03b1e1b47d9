package io.swale.local;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A redis-server child process without persistence, stopped by its owner. embedded-redis starts one too, but also
 * stops it from a JVM shutdown hook of its own, which runs alongside Spring's: on SIGTERM the server went away while
 * the service was still draining through it. Where {@code setsid} exists the server runs in a session of its own,
 * because a terminal's Ctrl-C goes to the JVM's whole process group, and redis-server shuts down on SIGINT at once.
 *
 * <p>Where {@code /bin/sh} exists the server runs under a small script that holds a lifeline: the pipe of its standard
 * input, whose other end only this JVM holds. The script stops the server when the pipe closes, which {@link #stop()}
 * does, and which the kernel does when the JVM dies without running its hooks ({@code kill -9}, the OOM killer): a
 * server left behind then held its port and memory until someone killed it by hand. So at a normal exit too the
 * server serves until every shutdown hook (the service's drain among them) has run. Elsewhere the binary runs
 * directly, is stopped with SIGTERM, and a hook of its own stops it at the JVM's exit once stopped by its owner, or
 * after {@link #EXIT_AWAITS_STOP}.
 */
final class RedisServerProcess {
    private static final Logger log = LoggerFactory.getLogger(RedisServerProcess.class);
    private static final String READY_LINE = "Ready to accept connections";
    /** How many of its last lines a failed start reports. */
    private static final int LINES_KEPT = 20;
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);
    /** The exit code of a process killed by SIGKILL. */
    private static final int KILLED = 128 + 9;
    /**
     * Runs its arguments as the server and stops it with SIGTERM once its own standard input, the lifeline, ends;
     * exits with the server's status. A background job's standard input is /dev/null, hence the copy on fd 3.
     */
    private static final String LIFELINE = String.join("\n",
            "exec 3<&0",
            "\"$@\" </dev/null 3<&- &",
            "server=$!",
            "( while read -r _ <&3; do :; done; kill -TERM \"$server\" 2>/dev/null ) &",
            "watcher=$!",
            "exec 3<&-",
            "wait \"$server\"",
            "status=$?",
            "kill \"$watcher\" 2>/dev/null",
            "exit \"$status\"");

    private static final Path SH = Path.of("/bin/sh");
    /** Without a lifeline: how long the JVM's exit waits for the owner's stop (a 30 s drain and the rest). */
    private static final Duration EXIT_AWAITS_STOP = Duration.ofSeconds(90);

    private final Process process;
    private final boolean lifeline;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private RedisServerProcess(Process process, boolean lifeline) {
        this.process = process;
        this.lifeline = lifeline;
    }

    /**
     * Runs {@code binary} on {@code host:port} and returns once it prints its ready line. Throws with its last
     * lines of output if it exits first (a port in use, a bad binary) or is not ready within {@code readyWithin}.
     */
    static RedisServerProcess start(Path binary, String host, int port, Duration readyWithin) throws IOException {
        List<String> command = new ArrayList<>();
        setsid().ifPresent(setsid -> command.add(setsid.toString()));
        boolean lifeline = Files.isExecutable(SH);
        if (lifeline) {
            command.addAll(List.of(SH.toString(), "-c", LIFELINE, "sh"));
        }
        command.addAll(List.of(binary.toString(), "--port", Integer.toString(port), "--bind", host,
                "--appendonly", "no", "--save", ""));
        Process process = new ProcessBuilder(command).directory(binary.getParent().toFile()).redirectErrorStream(true)
                .start();
        // set once: either the ready line or the time limit wins
        AtomicBoolean settled = new AtomicBoolean();
        CompletableFuture.delayedExecutor(readyWithin.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            if (settled.compareAndSet(false, true)) {
                kill(process);
            }
        });
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Deque<String> last = new ArrayDeque<>();
        try {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.contains(READY_LINE) && settled.compareAndSet(false, true)) {
                    drain(out, port);
                    return running(process, lifeline);
                }
                if (last.size() == LINES_KEPT) {
                    last.removeFirst();
                }
                last.addLast(line);
            }
        } catch (IOException | RuntimeException e) {
            kill(process);
            throw e;
        }
        // the output ends when the server exits, or when it was killed for not being ready in time
        boolean exited = exited(process);
        if (!exited) {
            kill(process);
        }
        String why = exited && process.exitValue() != KILLED ? "exited with code " + process.exitValue()
                : "was not ready within " + readyWithin.toSeconds() + " s";
        throw new IOException("redis-server " + why + ": " + String.join(" | ", last));
    }

    private static RedisServerProcess running(Process process, boolean lifeline) {
        RedisServerProcess server = new RedisServerProcess(process, lifeline);
        if (!lifeline) {
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(server::stopAtExit, "swale-embedded-redis-exit"));
            } catch (IllegalStateException exiting) {
                server.stop(); // started while the JVM exits: nothing would stop it
                throw exiting;
            }
        }
        return server;
    }

    private void stopAtExit() {
        try {
            if (!stopped.await(EXIT_AWAITS_STOP.toSeconds(), TimeUnit.SECONDS)) {
                stop();
            }
        } catch (InterruptedException e) {
            stop();
        }
    }

    /**
     * {@code setsid} on the PATH, if any. Its child here never leads a process group, so it makes the session and
     * runs what follows it (the script, or the server) in its own place, under the pid this process knows.
     */
    private static Optional<Path> setsid() {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("/usr/bin:/bin");
        return Arrays.stream(path.split(File.pathSeparator)).filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, "setsid")).filter(Files::isExecutable).findFirst();
    }

    private static boolean exited(Process process) {
        try {
            return process.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(process);
            return false;
        }
    }

    /**
     * SIGKILL to the server and its script: the server first, as it is no longer the script's child after. Through
     * the handle, which only signals: {@code Process.destroyForcibly} also closes the streams, and the reader of a
     * start cut short would then report "Stream closed" instead of the server's last lines.
     */
    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.toHandle().destroyForcibly();
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

    /**
     * Ends the lifeline (the script then stops the server with SIGTERM), or sends SIGTERM to a server without one,
     * and SIGKILLs what has not exited within {@link #STOP_WAIT}; returns once it has.
     */
    void stop() {
        if (lifeline) {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                log.debug("redis-server's lifeline did not close cleanly: {}", e.toString());
            }
        } else {
            process.toHandle().destroy();
        }
        try {
            if (!process.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                kill(process);
                process.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(process);
        } finally {
            stopped.countDown();
        }
    }
}
