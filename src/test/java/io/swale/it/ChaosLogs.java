package io.swale.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines of the chaos processes' logs (target/chaos/*.log) in a time window that can tell why work paused: the
 * broker's group changes, the members' warnings and errors, repairs, hand-overs and partition moves. A pause over
 * the limit is rare and the logs are gone after the next run; these lines go into the report, so a CI log shows them.
 */
final class ChaosLogs {
    /** Each line of a member (Spring Boot's ISO time) or the broker (ChaosCluster's pattern) starts with its instant. */
    private static final Pattern TIME =
            Pattern.compile("^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}(?:Z|[+-]\\d{2}:\\d{2}))");
    private static final Pattern TELLING = Pattern.compile("Preparing to rebalance|Stabilized group|has left group"
            + "|has failed|joins group| WARN | ERROR |reconciler pass|reconcile pass after|lease given back|refused at claim"
            + "|left for another replica|pool drained|pool role stopped|Revoke previously|Adding newly assigned"
            + "|hand-over|Started SwaleApplication");
    static final int MAX_LINES = 150;
    private static final long BEFORE_MS = 5_000;
    private static final long AFTER_MS = 1_000;

    private record Line(long atMs, String text) {}

    private ChaosLogs() {}

    /** The telling lines from a little before {@code fromMs} to a little after {@code toMs}, in time order. */
    static List<String> around(Path dir, long fromMs, long toMs) {
        List<Line> lines = new ArrayList<>();
        try (DirectoryStream<Path> logs = Files.newDirectoryStream(dir, "*.log")) {
            for (Path log : logs) {
                String name = log.getFileName().toString().replace(".log", "");
                // decoded leniently: one stray byte must not hide every line
                for (String text : new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList()) {
                    long at = timeOf(text);
                    if (at >= fromMs - BEFORE_MS && at <= toMs + AFTER_MS && TELLING.matcher(text).find()) {
                        lines.add(new Line(at, name + ": " + (text.length() > 300 ? text.substring(0, 300) : text)));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of("(the logs of " + dir + " could not be read: " + e + ")");
        }
        lines.sort(Comparator.comparingLong(Line::atMs));
        List<String> out = new ArrayList<>(lines.stream().limit(MAX_LINES).map(Line::text).toList());
        if (lines.size() > MAX_LINES) {
            out.add("… " + (lines.size() - MAX_LINES) + " more lines");
        }
        return out;
    }

    /** The epoch ms a log line starts with, or -1. */
    static long timeOf(String line) {
        Matcher m = TIME.matcher(line);
        return m.find() ? java.time.OffsetDateTime.parse(m.group(1)).toInstant().toEpochMilli() : -1;
    }
}
