package io.swale.graph;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Optional;

/** How a graph slices time into partitions; always in UTC. */
public enum Partitioning {
    NONE("none"),
    DAILY("daily"),
    HOURLY("hourly");

    /** 9999-12-31T23:59:59.999Z, the last instant whose partition is representable. */
    private static final long LAST_MS = 253402300799999L;

    private final String configName;

    Partitioning(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static Optional<Partitioning> fromConfigName(String name) {
        for (Partitioning p : values()) {
            if (p.configName.equals(name)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The partition containing the instant {@code ms} (unsigned ms since the epoch); empty when not representable. */
    public Optional<Partition> ofTime(long ms) {
        if (ms < 0 || ms > LAST_MS) {
            return Optional.empty();
        }
        ZonedDateTime t = Instant.ofEpochMilli(ms).atZone(ZoneOffset.UTC);
        // Locale.ROOT: a default locale such as Persian would write the digits in its own script
        String day = String.format(Locale.ROOT, "%04d%02d%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth());
        return Optional.of(switch (this) {
            case NONE -> Partition.NONE;
            case DAILY -> new Partition(day);
            case HOURLY -> new Partition(day + "T" + String.format(Locale.ROOT, "%02d", t.getHour()));
        });
    }
}
