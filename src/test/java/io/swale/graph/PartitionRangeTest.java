package io.swale.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionRangeTest {
    @Test
    void dailyRangeCrossesMonthsAndIncludesBothEnds() {
        var from = PartitionRange.parse(Partitioning.DAILY, "20260227").orElseThrow();
        var to = PartitionRange.parse(Partitioning.DAILY, "20260302").orElseThrow();
        assertThat(PartitionRange.between(Partitioning.DAILY, from, to, 100).stream().map(Partition::key).toList())
                .isEqualTo(List.of("20260227", "20260228", "20260301", "20260302"));
    }

    @Test
    void hourlyRangeCrossesDays() {
        var from = PartitionRange.parse(Partitioning.HOURLY, "20260915T22").orElseThrow();
        var to = PartitionRange.parse(Partitioning.HOURLY, "20260916T01").orElseThrow();
        assertThat(PartitionRange.between(Partitioning.HOURLY, from, to, 100).stream().map(Partition::key).toList())
                .isEqualTo(List.of("20260915T22", "20260915T23", "20260916T00", "20260916T01"));
    }

    @Test
    void keysOfAnotherFormatOrImpossibleDatesAreRejected() {
        assertThat(PartitionRange.parse(Partitioning.DAILY, "2026-09-15")).isEmpty();
        assertThat(PartitionRange.parse(Partitioning.DAILY, "20260230")).isEmpty();
        assertThat(PartitionRange.parse(Partitioning.DAILY, "20260915T02")).isEmpty();
        assertThat(PartitionRange.parse(Partitioning.HOURLY, "20260915T24")).isEmpty();
        assertThat(PartitionRange.parse(Partitioning.HOURLY, "20260915")).isEmpty();
        assertThat(PartitionRange.parse(Partitioning.NONE, "none")).isEmpty();
    }

    @Test
    void rangesBeyondTheBoundAreRefused() {
        var from = PartitionRange.parse(Partitioning.DAILY, "20260101").orElseThrow();
        var to = PartitionRange.parse(Partitioning.DAILY, "20261231").orElseThrow();
        assertThatThrownBy(() -> PartitionRange.between(Partitioning.DAILY, from, to, 10))
                .hasMessageContaining("more than 10");
    }
}
