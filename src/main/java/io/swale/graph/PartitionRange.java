package io.swale.graph;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Every partition of a daily or hourly partitioning between two keys, both included. */
public final class PartitionRange {
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuuMMdd").withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("uuuuMMdd'T'HH").withResolverStyle(ResolverStyle.STRICT);

    private PartitionRange() {}

    /** Parses a key of the partitioning; empty when it is not one (or the partitioning is none). */
    public static Optional<LocalDateTime> parse(Partitioning partitioning, String key) {
        try {
            return switch (partitioning) {
                case DAILY -> key.length() == 8 ? Optional.of(LocalDate.parse(key, DAY).atStartOfDay()) : Optional.empty();
                case HOURLY -> key.length() == 11 ? Optional.of(LocalDateTime.parse(key, HOUR)) : Optional.empty();
                case NONE -> Optional.empty();
            };
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The format of a partitioning's keys, for error messages. */
    public static String format(Partitioning partitioning) {
        return switch (partitioning) {
            case DAILY -> "YYYYMMDD";
            case HOURLY -> "YYYYMMDDTHH";
            case NONE -> "none";
        };
    }

    /**
     * The keys from {@code from} to {@code to}, both included, in order; at most {@code max} of them (more
     * gives an IllegalArgumentException). Both must be keys of the partitioning and from ≤ to.
     */
    public static List<Partition> between(Partitioning partitioning, LocalDateTime from, LocalDateTime to, int max) {
        List<Partition> out = new ArrayList<>();
        LocalDateTime t = from;
        while (!t.isAfter(to)) {
            if (out.size() == max) {
                throw new IllegalArgumentException("the range holds more than " + max + " partitions");
            }
            out.add(Partition.of(partitioning == Partitioning.DAILY ? t.format(DAY) : t.format(HOUR)));
            t = partitioning == Partitioning.DAILY ? t.plusDays(1) : t.plusHours(1);
        }
        return out;
    }
}
