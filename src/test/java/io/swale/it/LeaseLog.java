package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the shell nodes of the lease tests write: one {@code start <who> <ns>} and one {@code end <who> <ns>} line
 * per execution (wall clock, one machine), read back as intervals.
 */
final class LeaseLog {
    record Interval(String who, long start, long end) {}

    private LeaseLog() {}

    /** A shell command that records its start and end around {@code work}, then outputs {@code {}}. */
    static String command(Path log, String who, String work) {
        return "echo \\\"start " + who + " $(date +%s%N)\\\" >> " + log + "; " + work + "; echo \\\"end " + who
                + " $(date +%s%N)\\\" >> " + log + "; printf '{}'";
    }

    /** Every finished execution, by start time; an execution that started and never ended fails the test. */
    static List<Interval> read(Path log) throws IOException {
        return read(log, java.util.OptionalLong.empty());
    }

    /**
     * As {@link #read(Path)}, but an execution that never ended (its process was killed) counts as running until
     * {@code killedAtNanos} when given.
     */
    static List<Interval> read(Path log, java.util.OptionalLong killedAtNanos) throws IOException {
        Map<String, long[]> open = new LinkedHashMap<>();
        List<Interval> out = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            String[] f = line.trim().split(" ");
            if (f[0].equals("start")) {
                open.put(f[1], new long[] {Long.parseLong(f[2])});
            } else {
                long[] s = open.remove(f[1]);
                assertThat(s).as("an end without a start: " + line).isNotNull();
                out.add(new Interval(f[1], s[0], Long.parseLong(f[2])));
            }
        }
        if (killedAtNanos.isPresent()) {
            open.forEach((who, start) -> out.add(new Interval(who + " (killed)", start[0], killedAtNanos.getAsLong())));
            open.clear();
        }
        assertThat(open).as("executions that started and never ended").isEmpty();
        out.sort(Comparator.comparingLong(Interval::start));
        return out;
    }

    /** The most executions that ran at one moment. */
    static int mostAtOnce(List<Interval> intervals) {
        List<long[]> events = new ArrayList<>();
        for (Interval i : intervals) {
            events.add(new long[] {i.start(), 1});
            events.add(new long[] {i.end(), -1});
        }
        // an end at the same nanosecond as a start comes first: touching is not overlapping
        events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        int now = 0;
        int most = 0;
        for (long[] e : events) {
            now += (int) e[1];
            most = Math.max(most, now);
        }
        return most;
    }
}
