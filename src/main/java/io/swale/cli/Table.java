package io.swale.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A table as spec §13 prints it: columns left-aligned and padded to the widest cell (header included), two
 * spaces apart, trailing spaces trimmed; absent values as {@code -}.
 */
final class Table {
    private final List<String[]> rows = new ArrayList<>();

    Table(String... header) {
        rows.add(header);
    }

    Table row(String... cells) {
        String[] r = Arrays.stream(cells).map(c -> c == null || c.isEmpty() ? "-" : c).toArray(String[]::new);
        rows.add(r);
        return this;
    }

    void print(PrintWriter out) {
        int columns = rows.getFirst().length;
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(r[i]);
                if (i < columns - 1) {
                    line.append(" ".repeat(width[i] - r[i].length() + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }

    /** RFC 3339 UTC to the second, or the text as it is when it is not a time; null → null. */
    static String time(JsonNode t) {
        if (t == null || t.isNull()) {
            return null;
        }
        try {
            return Instant.parse(t.asString()).truncatedTo(ChronoUnit.SECONDS).toString();
        } catch (DateTimeParseException e) {
            return t.asString();
        }
    }

    /** A hash cut to 12 characters. */
    static String hash(JsonNode h) {
        if (h == null || h.isNull()) {
            return null;
        }
        String s = h.asString();
        return s.length() > 12 ? s.substring(0, 12) : s;
    }

    static String text(JsonNode v) {
        return v == null || v.isNull() ? null : v.asString();
    }

    /**
     * {@code label: error} as the `{node}: {error}` lines print it: an error of several lines (a program's stderr
     * tail) has its later lines indented, so that none reads as the line of another node.
     */
    static String errorLine(String label, String error) {
        return errorLine("", label, error);
    }

    /** As above, every line after {@code indent}. */
    static String errorLine(String indent, String label, String error) {
        return indent + label + ": " + String.join("\n" + indent + "    ", error.lines().toList());
    }
}
