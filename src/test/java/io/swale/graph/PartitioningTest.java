package io.swale.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class PartitioningTest {
    private static final long FIRING = Instant.parse("2026-09-15T02:00:00Z").toEpochMilli();

    @Test
    void keysAreAsciiDigitsWhateverTheDefaultLocale() {
        Locale before = Locale.getDefault();
        // Persian formats numbers in its own digits (۲۰۲۶…), which are not a partition key
        Locale.setDefault(Locale.forLanguageTag("fa-IR"));
        try {
            assertThat(Partitioning.DAILY.ofTime(FIRING)).map(Partition::key).contains("20260915");
            assertThat(Partitioning.HOURLY.ofTime(FIRING)).map(Partition::key).contains("20260915T02");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void anUnpartitionedGraphHasOnePartitionAtAnyTime() {
        assertThat(Partitioning.NONE.ofTime(FIRING)).contains(Partition.NONE);
    }
}
