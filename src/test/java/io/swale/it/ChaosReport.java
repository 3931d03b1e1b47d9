package io.swale.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the chaos test saw, as figures: runs, faults and the pause after each, dead letters, re-executions by
 * cause, and every violation found. Printed and written to {@code target/chaos-report.txt}.
 */
final class ChaosReport {
    /**
     * One injected fault. {@code backMs}: the killed process serves again. {@code fromMs}: where its pause is
     * measured from: the fault itself when other replicas should carry on (a worker, a scheduler), the restart
     * when nothing can progress without the process (Redis, Kafka).
     */
    record Fault(String what, long atMs, long backMs, long fromMs, long activeRuns, boolean recovered) {}

    /** A letter on a dead-letter topic that names a run of the test, and the state that run ended in. */
    record DeadLetter(String topic, String key, String partition, String runState) {
        boolean ofCompletedRun() {
            return runState.equals("complete");
        }
    }

    /**
     * The longest time without a termination after a fault, up to the next fault (or the last termination): from
     * {@code gapFromMs} to {@code gapToMs} (epoch ms).
     */
    record Pause(Fault fault, long firstTerminationMs, long longestMs, long gapFromMs, long gapToMs) {}

    final List<Fault> faults = new ArrayList<>();
    final List<DeadLetter> deadLetters = new ArrayList<>();
    final List<String> violations = new ArrayList<>();
    /** The processes' log lines around a pause over the limit, to tell its cause from a CI log alone. */
    final List<String> pauseLogs = new ArrayList<>();
    final Map<String, Integer> runStates = new TreeMap<>();
    final Map<String, Integer> outcomes = new TreeMap<>();
    List<AttemptLog.ReExecution> reExecutions = List.of();
    List<Long> terminations = List.of();
    long startedMs;
    int runs;
    int attempts;
    long scenarioMs;
    long pauseLimitMs;

    List<Pause> pauses() {
        List<Pause> out = new ArrayList<>();
        long last = terminations.isEmpty() ? 0 : terminations.getLast();
        for (int i = 0; i < faults.size(); i++) {
            Fault f = faults.get(i);
            long to = i + 1 < faults.size() ? faults.get(i + 1).atMs() : last;
            long prev = f.fromMs();
            long longest = 0;
            long gapFrom = prev;
            long first = -1;
            for (long t : terminations) {
                if (t > f.fromMs() && t <= to) {
                    first = first < 0 ? t : first;
                    if (t - prev > longest) {
                        longest = t - prev;
                        gapFrom = prev;
                    }
                    prev = t;
                }
            }
            if (to - prev > longest) {
                longest = to - prev;
                gapFrom = prev;
            }
            out.add(new Pause(f, first < 0 ? -1 : first - f.fromMs(), longest, gapFrom, gapFrom + longest));
        }
        return out;
    }

    Map<String, Long> reExecutionsByCause() {
        return reExecutions.stream().collect(Collectors.groupingBy(AttemptLog.ReExecution::cause, TreeMap::new,
                Collectors.counting()));
    }

    long falseDeadLetters() {
        return deadLetters.stream().filter(DeadLetter::ofCompletedRun).count();
    }

    String text() {
        StringBuilder s = new StringBuilder("chaos report (t0 = first run started, epoch ms " + startedMs + ")\n");
        s.append("runs: ").append(runs).append(" started, by final state ").append(runStates)
                .append("; attempts recorded by the tasks: ").append(attempts).append("; scenario ")
                .append(seconds(scenarioMs)).append(" s\n");
        s.append("attempt outcomes in Swale's history: ").append(outcomes).append('\n');
        s.append("faults (times in s from t0; pause = longest time without a termination, limit ")
                .append(seconds(pauseLimitMs)).append(" s):\n");
        for (Pause p : pauses()) {
            Fault f = p.fault();
            s.append(String.format("  %-34s at %6s  back after %6s  active runs %3d  first termination %6s  pause %6s%s%n",
                    f.what(), seconds(f.atMs() - startedMs), seconds(f.backMs() - f.atMs()), f.activeRuns(),
                    p.firstTerminationMs() < 0 ? "none" : seconds(p.firstTerminationMs()), seconds(p.longestMs()),
                    (f.recovered() ? "" : "  (no progress within the recovery wait)")
                            + (f.fromMs() == f.atMs() ? "" : "  (measured from the restart)")));
        }
        s.append("dead letters of the test's runs: ").append(deadLetters.size()).append(", of runs that completed: ")
                .append(falseDeadLetters()).append('\n');
        deadLetters.stream().collect(Collectors.groupingBy(DeadLetter::topic, TreeMap::new, Collectors.counting()))
                .forEach((t, n) -> s.append("  ").append(t).append(": ").append(n).append('\n'));
        s.append("re-executions (an attempt followed by another of the same task instance): ")
                .append(reExecutions.size()).append('\n');
        reExecutionsByCause().forEach((c, n) -> s.append("  ").append(c).append(": ").append(n).append('\n'));
        s.append("violations: ").append(violations.size()).append('\n');
        violations.stream().limit(40).forEach(v -> s.append("  ").append(v).append('\n'));
        if (violations.size() > 40) {
            s.append("  … ").append(violations.size() - 40).append(" more\n");
        }
        if (!pauseLogs.isEmpty()) {
            s.append("log lines around the long pauses (group changes, warnings, repairs, hand-overs):\n");
            pauseLogs.forEach(l -> s.append("  ").append(l).append('\n'));
        }
        return s.toString();
    }

    void write(Path file) {
        try {
            Files.writeString(file, text());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String seconds(long ms) {
        return String.format("%.1f", ms / 1000.0);
    }

    static Optional<String> partitionOf(String key, String graph, List<String> partitions) {
        return partitions.stream().filter(p -> key.equals(graph + "/" + p) || key.startsWith(graph + "-" + p + "-"))
                .findFirst();
    }
}
