package io.swale.operator;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * Runs one program for the {@code subprocess} and {@code shell} operators and maps its end to an
 * {@link OperatorResult} (§8.3): stdout and stderr are read concurrently, the whole process tree is
 * killed on cancellation or timeout.
 */
final class ProcessRunner {
    private static final System.Logger LOG = System.getLogger(ProcessRunner.class.getName());

    /** Exit code of a temporary failure (sysexits EX_TEMPFAIL). */
    static final int EX_TEMPFAIL = 75;
    /** Stdout beyond this is not held in memory: only judged JSON or not, its output then omitted. */
    static final int MAX_STDOUT_BYTES = OperatorJson.MAX_HELD_OUTPUT_BYTES;
    /** Stderr kept for the log; the error message carries the last 512 bytes of it. */
    static final int STDERR_KEEP_BYTES = 16 * 1024;
    /** How long to wait for a killed tree to exit and its pipes to close. */
    private static final long KILL_GRACE_MS = 5_000L;

    /**
     * One program to run.
     *
     * @param program the name error messages use
     * @param command the program and its arguments
     * @param environment the complete environment of the program
     * @param stdin bytes written to stdin before it is closed; empty for stdin from {@code /dev/null}
     * @param timeout ends the attempt when it passes
     */
    record Launch(String program, List<String> command, Map<String, String> environment,
            Optional<byte[]> stdin, Optional<Timeout> timeout) {
        Launch {
            Objects.requireNonNull(program, "program");
            command = List.copyOf(command);
            environment = Map.copyOf(environment);
            Objects.requireNonNull(stdin, "stdin");
            Objects.requireNonNull(timeout, "timeout");
        }
    }

    /** A run-time limit, with the text it was written as for messages. */
    record Timeout(long seconds, String text) {
        static Optional<Timeout> parse(String text) {
            return text == null ? Optional.empty() : Optional.of(new Timeout(OperatorDurations.parseSeconds(text), text));
        }
    }

    /** Bytes read from a stream; {@code truncated} when more came than were kept. */
    private record Captured(byte[] bytes, int length, boolean truncated) {}

    private ProcessRunner() {}

    static OperatorResult run(Launch launch, AttemptContext context) {
        Cancellation cancellation = context.cancellation();
        if (cancellation.isCancelled()) {
            return new OperatorResult.TransientError(cancelledMessage(launch, cancellation));
        }
        ProcessBuilder builder = new ProcessBuilder(launch.command());
        String mark = ProcessMarks.next();
        try {
            Map<String, String> env = builder.environment();
            env.clear();
            env.putAll(launch.environment());
            env.put(ProcessMarks.VARIABLE, mark);
        } catch (IllegalArgumentException e) {
            return new OperatorResult.PermanentError("cannot start program `" + launch.program()
                    + "`: invalid environment: " + e.getMessage());
        }
        builder.redirectInput(launch.stdin().isPresent()
                ? ProcessBuilder.Redirect.PIPE
                : ProcessBuilder.Redirect.from(new File("/dev/null")));

        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            Throwable os = e.getCause() != null ? e.getCause() : e;
            return new OperatorResult.PermanentError("cannot start program `" + launch.program() + "`: "
                    + Objects.requireNonNullElse(os.getMessage(), os.toString()).strip());
        } catch (RuntimeException e) {
            // e.g. a NUL byte in an argument
            return new OperatorResult.PermanentError("cannot start program `" + launch.program() + "`: "
                    + OperatorJson.describe(e));
        }

        launch.stdin().ifPresent(bytes -> OperatorExecutors.IO.execute(() -> writeStdin(process, bytes)));
        CompletableFuture<ProgramStdout> out = CompletableFuture.supplyAsync(
                () -> ProgramStdout.read(process.getInputStream(), MAX_STDOUT_BYTES), OperatorExecutors.IO);
        CompletableFuture<Captured> err = CompletableFuture.supplyAsync(
                () -> readTail(process.getErrorStream(), STDERR_KEEP_BYTES), OperatorExecutors.IO);
        // Not process.onExit(): on a small machine (JDK 25, common-pool parallelism 1) its completion waited for
        // other processes of the JVM to end, so overlapping programs seemed to run as long as the longest one.
        CompletableFuture<Integer> exited = CompletableFuture.supplyAsync(() -> awaitExit(process), OperatorExecutors.IO);
        CompletableFuture<Void> done = CompletableFuture.allOf(exited, out, err);

        CompletableFuture<String> stop = new CompletableFuture<>();
        cancellation.onCancel(() -> stop.complete(cancelledMessage(launch, cancellation)));
        ScheduledFuture<?> timer = launch.timeout()
                .map(t -> OperatorExecutors.completeAfter(stop, timedOutMessage(launch, t),
                        OperatorDurations.toMillisSaturated(t.seconds())))
                .orElse(null);

        boolean interrupted = false;
        try {
            CompletableFuture.anyOf(done, stop).get();
        } catch (InterruptedException e) {
            interrupted = true;
            stop.complete("the attempt of program `" + launch.program() + "` was interrupted; killed it");
        } catch (ExecutionException e) {
            // a reader failed: judged below
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
        }

        try {
            if (!done.isDone() && stop.isDone()) {
                killTree(process, mark);
                awaitQuietly(done, KILL_GRACE_MS);
                if (process.isAlive()) {
                    LOG.log(System.Logger.Level.WARNING, "run {0}: program `{1}` (pid {2}) still alive after kill",
                            context.runId(), launch.program(), process.pid());
                }
                return new OperatorResult.TransientError(stop.getNow("stopped") + stderrOfStopped(launch, context, err));
            }
            return judge(launch, context, process, out, err);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Logs the stderr of a stopped program, as of one that exited; answers its tail for the error, if any. */
    private static String stderrOfStopped(Launch launch, AttemptContext context, CompletableFuture<Captured> err) {
        Captured stderr = err.isDone() && !err.isCompletedExceptionally() ? err.join() : null;
        if (stderr == null || stderr.length() == 0) {
            return "";
        }
        logStderr(context, launch.program(), "was stopped", stderr);
        return "; stderr tail: " + OperatorJson.tail(stderr.bytes(), stderr.length());
    }

    /** Logs a program's stderr (§8.3: captured and logged), saying how the program ended. */
    private static void logStderr(AttemptContext context, String program, String ended, Captured stderr) {
        LOG.log(System.Logger.Level.INFO, "run {0}: program `{1}` {2}; stderr{3}:\n{4}", context.runId(), program, ended,
                stderr.truncated() ? " (its end only)" : "",
                new String(stderr.bytes(), 0, stderr.length(), java.nio.charset.StandardCharsets.UTF_8));
    }

    private static OperatorResult judge(Launch launch, AttemptContext context, Process process,
            CompletableFuture<ProgramStdout> out, CompletableFuture<Captured> err) {
        String program = launch.program();
        ProgramStdout stdout;
        Captured stderr;
        try {
            stdout = out.join();
            stderr = err.join();
        } catch (RuntimeException e) {
            return new OperatorResult.TransientError("reading the output of program `" + program + "` failed: "
                    + OperatorJson.describe(e));
        }
        int code = process.exitValue();
        if (stderr.length() > 0) {
            logStderr(context, program, "exited with code " + code, stderr);
        }
        String tail = OperatorJson.tail(stderr.bytes(), stderr.length());
        String tailText = tail.isEmpty() ? "; no stderr" : "; stderr tail: " + tail;
        if (code == 0) {
            return parseStdout(context, program, stdout);
        }
        if (code == EX_TEMPFAIL) {
            return new OperatorResult.TransientError("program `" + program + "` exited with code 75"
                    + " (temporary failure)" + tailText);
        }
        if (code > 128 && code <= 128 + 64) {
            // The JDK reports death by signal N as status 128 + N, the same as an exit with that code.
            int signal = code - 128;
            return new OperatorResult.PermanentError("program `" + program + "` was killed by signal " + signal
                    + " (or exited with code " + code + ")" + tailText);
        }
        return new OperatorResult.PermanentError("program `" + program + "` exited with code " + code + tailText);
    }

    private static OperatorResult parseStdout(AttemptContext context, String program, ProgramStdout stdout) {
        return switch (stdout) {
            case ProgramStdout.Held held -> parseHeld(program, held.bytes());
            case ProgramStdout.Unheld unheld -> switch (unheld.verdict()) {
                case JsonSyntaxCheck.Verdict.Json json -> {
                    LOG.log(System.Logger.Level.INFO, "run {0}: program `{1}` wrote {2} bytes of JSON to stdout, more"
                            + " than the {3} held: its output is omitted", context.runId(), program,
                            Long.toString(unheld.length()), Integer.toString(MAX_STDOUT_BYTES));
                    yield OperatorResult.Succeeded.omitted();
                }
                case JsonSyntaxCheck.Verdict.Empty empty -> new OperatorResult.Succeeded(NullNode.getInstance());
                case JsonSyntaxCheck.Verdict.NotJson notJson -> new OperatorResult.PermanentError("program `" + program
                        + "` exited with code 0 but its stdout is not JSON: " + notJson.reason());
            };
        };
    }

    private static OperatorResult parseHeld(String program, byte[] bytes) {
        int start = OperatorJson.trimStart(bytes, bytes.length);
        int end = OperatorJson.trimEnd(bytes, start, bytes.length);
        if (start == end) {
            return new OperatorResult.Succeeded(NullNode.getInstance());
        }
        try {
            JsonNode value = OperatorJson.parse(bytes, start, end);
            return new OperatorResult.Succeeded(value);
        } catch (JacksonException e) {
            return new OperatorResult.PermanentError("program `" + program + "` exited with code 0 but its stdout"
                    + " is not JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Kills the process and everything it started, parents before their children, each one's children
     * listed before it dies (after that they are re-parented out of its tree): a shell killed after its
     * child would run its next command (`sleep 60; touch done` must never touch). Then a sweep of the
     * descendants seen at the start catches any process the walk missed, and the program's mark (see
     * {@link ProcessMarks}) the processes that left the tree before the kill.
     */
    static void killTree(Process process, String mark) {
        List<ProcessHandle> seen = process.descendants().toList();
        List<ProcessHandle> children = process.children().toList();
        process.destroyForcibly();
        Set<Long> killed = new HashSet<>();
        killed.add(process.pid());
        children.forEach(c -> destroyWithChildren(c, killed));
        seen.stream().filter(h -> !killed.contains(h.pid())).forEach(ProcessHandle::destroyForcibly);
        ProcessMarks.find(mark).stream().filter(h -> !killed.contains(h.pid())).forEach(h -> destroyWithChildren(h, killed));
    }

    /** Kills {@code root} and its descendants, each one's children listed before it dies; records whom in {@code killed}. */
    private static void destroyWithChildren(ProcessHandle root, Set<Long> killed) {
        java.util.ArrayDeque<ProcessHandle> next = new java.util.ArrayDeque<>(List.of(root));
        while (!next.isEmpty()) {
            ProcessHandle h = next.poll();
            if (killed.add(h.pid())) {
                List<ProcessHandle> children = h.children().toList();
                h.destroyForcibly();
                next.addAll(children);
            }
        }
    }

    /** Blocks until the process ends; an interrupt (attempt abandoned) ends the wait with -1. */
    private static int awaitExit(Process process) {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static void awaitQuietly(CompletableFuture<?> future, long millis) {
        boolean interrupted = Thread.interrupted();
        try {
            future.get(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        } catch (ExecutionException | TimeoutException e) {
            // the killed tree did not close its pipes in time; the readers are abandoned
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String cancelledMessage(Launch launch, Cancellation cancellation) {
        String why = cancellation.reason().isEmpty() ? "" : " (" + cancellation.reason() + ")";
        return "the attempt was cancelled" + why + "; killed program `" + launch.program() + "` and its children";
    }

    private static String timedOutMessage(Launch launch, Timeout timeout) {
        return "program `" + launch.program() + "` did not end within its timeout of " + timeout.text()
                + "; killed it and its children";
    }

    private static void writeStdin(Process process, byte[] bytes) {
        try (OutputStream in = process.getOutputStream()) {
            in.write(bytes);
        } catch (IOException e) {
            // the program may ignore stdin and exit before reading it (broken pipe)
            LOG.log(System.Logger.Level.DEBUG, "stdin of pid {0} not fully written: {1}", process.pid(), e.getMessage());
        }
    }

    /** Reads {@code in} to its end, keeping only its last {@code keep} bytes. */
    private static Captured readTail(InputStream in, int keep) {
        try (in) {
            byte[] ring = new byte[keep * 2];
            int length = 0;
            boolean truncated = false;
            int n;
            while ((n = in.read(ring, length, ring.length - length)) != -1) {
                length += n;
                if (length == ring.length) {
                    System.arraycopy(ring, length - keep, ring, 0, keep);
                    length = keep;
                    truncated = true;
                }
            }
            return new Captured(Arrays.copyOf(ring, length), length, truncated);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
