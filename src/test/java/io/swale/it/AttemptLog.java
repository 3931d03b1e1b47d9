package io.swale.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The start and end of every attempt as the tasks' own shell commands wrote them: {@code start|end <run id>
 * <attempt> <member> <pid> <epoch ms>}, one line per write (an append of a short line is atomic). An attempt is
 * the pair with the same run id, member and shell pid; one without an end was killed (with its worker, or by it).
 */
final class AttemptLog {
    /** One attempt of a task instance; {@code endMs} is empty when its shell never reached the end. */
    record Attempt(String runId, long attempt, String member, long pid, long startMs, Optional<Long> endMs) {
        boolean finished() {
            return endMs.isPresent();
        }

        /** For the report: times in seconds from {@code t0}. */
        String describe(long t0) {
            return runId + " attempt " + attempt + " on " + member + " from " + ChaosReport.seconds(startMs - t0) + " s"
                    + endMs.map(e -> " to " + ChaosReport.seconds(e - t0) + " s").orElse(" (no end)");
        }
    }

    /** Two attempts of one task instance whose intervals intersect. */
    record Overlap(Attempt first, Attempt second, long latestEndMs) {}

    /** An attempt followed by another of the same task instance, and why (see {@link #causes}). */
    record ReExecution(Attempt before, Attempt after, String cause) {}

    static final String FINISHED_RERUN = "finished attempt run again";

    private final Map<String, List<Attempt>> byRunId;

    private AttemptLog(Map<String, List<Attempt>> byRunId) {
        this.byRunId = byRunId;
    }

    /** The shell command that writes the lines: {@code sleep} seconds between start and end. */
    static String command(Path file, String sleep) {
        String fields = "$SWALE_RUN_ID $SWALE_ATTEMPT $CHAOS_MEMBER $$ $(date +%s%3N)";
        return "echo \"start " + fields + "\" >> " + file + "; sleep " + sleep + "; echo \"end " + fields + "\" >> "
                + file + "; printf '{}'";
    }

    static AttemptLog read(Path file) {
        List<String> lines;
        try {
            lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Long> ends = new LinkedHashMap<>();
        List<String[]> starts = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.trim().split(" ");
            if (f.length != 6) {
                throw new AssertionError("unreadable attempt line: " + line);
            }
            if (f[0].equals("start")) {
                starts.add(f);
            } else {
                ends.put(f[1] + " " + f[3] + " " + f[4], Long.parseLong(f[5]));
            }
        }
        Map<String, List<Attempt>> byRunId = new TreeMap<>();
        for (String[] f : starts) {
            Optional<Long> end = Optional.ofNullable(ends.get(f[1] + " " + f[3] + " " + f[4]));
            byRunId.computeIfAbsent(f[1], k -> new ArrayList<>()).add(new Attempt(f[1], Long.parseLong(f[2]), f[3],
                    Long.parseLong(f[4]), Long.parseLong(f[5]), end));
        }
        byRunId.values().forEach(l -> l.sort(Comparator.comparingLong(Attempt::startMs)));
        return new AttemptLog(byRunId);
    }

    Map<String, List<Attempt>> byRunId() {
        return byRunId;
    }

    int attempts() {
        return byRunId.values().stream().mapToInt(List::size).sum();
    }

    /** The end times of finished attempts, in order. */
    List<Long> ends() {
        return byRunId.values().stream().flatMap(List::stream).flatMap(a -> a.endMs().stream()).sorted().toList();
    }

    /**
     * Attempts of one instance that ran at once. An attempt without an end stopped at the latest when its worker's
     * process group was killed or, killed otherwise, before its sleep (and some slack) was over.
     */
    List<Overlap> overlaps(List<ChaosProcess.Killed> kills, long longestSleepMs) {
        List<Overlap> out = new ArrayList<>();
        for (List<Attempt> attempts : byRunId.values()) {
            for (int i = 0; i < attempts.size(); i++) {
                Attempt a = attempts.get(i);
                long latestEnd = a.endMs().orElseGet(() -> killedAt(a, kills).orElse(a.startMs() + longestSleepMs));
                for (int j = i + 1; j < attempts.size(); j++) {
                    if (attempts.get(j).startMs() <= latestEnd) {
                        out.add(new Overlap(a, attempts.get(j), latestEnd));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Every attempt followed by another of the same instance, with its cause: killed with its worker (kill -9),
     * stopped by a worker stopping on SIGTERM, killed in another way, or run to its end and yet run again. The
     * last is a defect, except when its worker was kill -9'd after the end while it still held the lease: then the
     * result may have died with it.
     */
    List<ReExecution> causes(List<ChaosProcess.Killed> kills, Map<String, Long> terminatedMembers, long leaseMs) {
        List<ReExecution> out = new ArrayList<>();
        for (List<Attempt> attempts : byRunId.values()) {
            for (int i = 0; i + 1 < attempts.size(); i++) {
                Attempt a = attempts.get(i);
                String cause;
                if (a.finished()) {
                    long end = a.endMs().orElseThrow();
                    // the shell may write its end after the signal was sent and before it arrived
                    cause = killedMember(a, kills).filter(k -> k.goneMs() >= end && k.atMs() - end <= leaseMs)
                            .map(k -> "worker kill -9 after the task's end, before its settle")
                            .orElse(FINISHED_RERUN);
                } else if (killedAt(a, kills).isPresent()) {
                    cause = "worker kill -9 (attempt killed with it)";
                } else if (terminatedMembers.containsKey(a.member())) {
                    cause = "worker SIGTERM (attempt stopped)";
                } else {
                    cause = "attempt killed otherwise (unfinished, worker alive)";
                }
                out.add(new ReExecution(a, attempts.get(i + 1), cause));
            }
        }
        return out;
    }

    /** When, at the latest, an unfinished attempt was killed with its worker's process group. */
    private static Optional<Long> killedAt(Attempt a, List<ChaosProcess.Killed> kills) {
        return a.finished() ? Optional.empty()
                : killedMember(a, kills).map(ChaosProcess.Killed::goneMs).filter(gone -> gone >= a.startMs());
    }

    private static Optional<ChaosProcess.Killed> killedMember(Attempt a, List<ChaosProcess.Killed> kills) {
        return kills.stream().filter(k -> k.member().equals(a.member())).findFirst();
    }
}
