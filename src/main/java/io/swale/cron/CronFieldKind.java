package io.swale.cron;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The five fields of the dialect, in order, with their ranges and the names each accepts. */
public enum CronFieldKind {
    MINUTE("minute", 0, 59, List.of()),
    HOUR("hour", 0, 23, List.of()),
    DAY_OF_MONTH("day of month", 1, 31, List.of()),
    MONTH("month", 1, 12, List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")),
    DAY_OF_WEEK("day of week", 0, 6, List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat"));

    private final String label;
    private final int min;
    private final int max;
    private final List<String> names;

    CronFieldKind(String label, int min, int max, List<String> names) {
        this.label = label;
        this.min = min;
        this.max = max;
        this.names = names;
    }

    public String label() {
        return label;
    }

    public int min() {
        return min;
    }

    public int max() {
        return max;
    }

    /** The largest number written in this field: day of week also accepts 7 for Sunday. */
    int maxWritten() {
        return this == DAY_OF_WEEK ? 7 : max;
    }

    boolean hasNames() {
        return !names.isEmpty();
    }

    /** The value a name stands for ({@code mon} → 1, {@code jan} → 1), case-insensitive. */
    Optional<Integer> named(String token) {
        int i = names.indexOf(token.toLowerCase(Locale.ROOT));
        return i < 0 ? Optional.empty() : Optional.of(i + min);
    }

    /** A mask with every value of the field set. */
    long fullMask() {
        return ((1L << (max + 1)) - 1) & ~((1L << min) - 1);
    }
}
