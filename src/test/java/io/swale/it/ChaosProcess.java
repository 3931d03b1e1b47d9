package io.swale.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * One child process of the chaos test under a stable name (w1, s2, redis, kafka): started, killed and started
 * again, each incarnation logging to {@code target/chaos/<name>-<incarnation>.log}. Each incarnation leads its own
 * process group ({@code setsid}), so a {@code kill -9} takes every program it started along at once, as a killed
 * container does, even a task's shell forked in the same instant.
 */
final class ChaosProcess {
    /**
     * A {@code kill -9} of an incarnation: {@code atMs} just before the signal was sent, {@code goneMs} once the
     * process had exited. Between the two its tasks' shells may still write a line, so an attempt's last moment
     * is bounded by {@code goneMs}.
     */
    record Killed(String member, long atMs, long goneMs) {}

    /**
     * An incarnation that exited on its own while it was expected to run. The message carries the end of its log,
     * since CI shows the test's report and not the files the test wrote.
     */
    static final class Exited extends IllegalStateException {
        private static final int TAIL_LINES = 40;

        Exited(String member, int code, Path log) {
            super(member + " exited with " + code + "; see " + log + "; it ends:\n" + tail(log));
        }

        private static String tail(Path log) {
            try {
                // decoded leniently: a log cut off by a kill may end inside a character
                List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
                return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }
    }

    private final String name;
    private final Path logDir;
    private final IntFunction<List<String>> command;
    private final Map<String, String> environment;
    private Process process;
    private int incarnation;

    /** {@code command} builds the command line of an incarnation (1, 2, …). */
    ChaosProcess(String name, Path logDir, IntFunction<List<String>> command, Map<String, String> environment) {
        this.name = name;
        this.logDir = logDir;
        this.command = command;
        this.environment = environment;
    }

    String name() {
        return name;
    }

    /** {@code <name>-i<incarnation>}: what the running incarnation calls itself (worker id, CHAOS_MEMBER). */
    String member() {
        return member(incarnation);
    }

    String member(int n) {
        return name + "-i" + n;
    }

    int nextIncarnation() {
        return incarnation + 1;
    }

    Path log() {
        return logDir.resolve(member() + ".log");
    }

    synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running");
        }
        incarnation++;
        List<String> cmd = new java.util.ArrayList<>(List.of("setsid"));
        cmd.addAll(command.apply(incarnation));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(log().toFile());
        pb.environment().putAll(environment);
        pb.environment().put("CHAOS_MEMBER", member());
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + member(), e);
        }
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The running incarnation's exit code, when it has exited on its own. */
    synchronized Optional<Integer> exited() {
        return process == null || process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
    }

    /** SIGKILL to the incarnation's whole process group. */
    synchronized Killed kill9() {
        long at = System.currentTimeMillis();
        signal("-9", -process.pid());
        awaitExit(30);
        return new Killed(member(), at, System.currentTimeMillis());
    }

    /** SIGTERM, then waits for the process to stop on its own (the graceful shutdown under test). */
    synchronized long terminate(int waitSeconds) {
        long at = System.currentTimeMillis();
        signal("-TERM", process.pid()); // to the JVM only: it stops its attempts itself
        if (!awaitExit(waitSeconds)) {
            throw new AssertionError(member() + " did not stop within " + waitSeconds + " s of SIGTERM; see " + log());
        }
        return at;
    }

    /** Kills what is left of this process's tree; for the end of the test and the shutdown hook. */
    synchronized void destroy() {
        if (process != null) {
            if (process.isAlive()) {
                signal("-9", -process.pid());
            }
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            awaitExit(10);
        }
    }

    private boolean awaitExit(int seconds) {
        try {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void signal(String signal, long pid) {
        try {
            // a negative pid is the process group the incarnation leads
            new ProcessBuilder("kill", signal, "--", Long.toString(pid)).start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
