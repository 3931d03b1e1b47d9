package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import org.junit.jupiter.api.Test;

class EdgeTailTest {
    private static final long MS = 1_000_000;

    @Test
    void theSlowestEdgesAreSplitIntoTheirLegsAgainstTheOrdinaryOnes() {
        EdgeTail tail = new EdgeTail(List.of("hop", "queue"));
        // 99 edges of 2 ms (1 + 1), one of 30 ms whose time went to the queue
        for (int i = 0; i < 99; i++) {
            long from = i * 100 * MS;
            tail.add(new EdgeTail.Edge(from, from + 2 * MS, new long[] {MS, MS}));
        }
        long slowFrom = 100_000 * MS;
        tail.add(new EdgeTail.Edge(slowFrom, slowFrom + 30 * MS, new long[] {MS, 29 * MS}));
        // a pause inside the slow edge only, 5 ms of it
        tail.addPause(slowFrom + 10 * MS, slowFrom + 15 * MS);

        EdgeTail.Summary s = tail.summarize(99.5);

        assertThat(s.thresholdMs()).isEqualTo(30.0);
        assertThat(s.tailEdges()).isEqualTo(1);
        assertThat(s.edges()).isEqualTo(100);
        assertThat(s.tailLegMeanMs()).containsEntry("hop", 1.0).containsEntry("queue", 29.0);
        assertThat(s.allLegMeanMs().get("queue")).isCloseTo((99 + 29) / 100.0, offset(1e-9));
        assertThat(s.tailShareWithPause()).isEqualTo(1.0);
        assertThat(s.allShareWithPause()).isEqualTo(0.01);
        assertThat(s.tailPauseMeanMs()).isEqualTo(5.0);
        assertThat(s.pauses()).isEqualTo(1);
        assertThat(s.pauseMaxMs()).isEqualTo(5.0);
        assertThat(s.tailStartsS()).containsExactly(100.0);
        assertThat(s.burst().tailEdges()).isEqualTo(1);
        assertThat(s.burst().startS()).isEqualTo(100.0);
    }

    @Test
    void theBusiestHalfSecondCountsTheSlowEdgesThatBeganTogether() {
        EdgeTail tail = new EdgeTail(List.of("hop"));
        // 1,000 fast edges, one every 10 ms; slow ones alone at 1 s and 2 s, and three within 0.4 s from 5 s
        for (int i = 0; i < 1000; i++) {
            tail.add(new EdgeTail.Edge(i * 10 * MS, i * 10 * MS + MS, new long[] {MS}));
        }
        for (long startMs : new long[] {1000, 2000, 5000, 5200, 5400, 5600}) {
            tail.add(new EdgeTail.Edge(startMs * MS, (startMs + 50) * MS, new long[] {50 * MS}));
        }

        EdgeTail.Summary s = tail.summarize(99.5);

        assertThat(s.tailEdges()).isEqualTo(6);
        // 5.0, 5.2 and 5.4 fit in half a second; 5.6 is 0.6 after 5.0
        assertThat(s.burst().tailEdges()).isEqualTo(3);
        assertThat(s.burst().startS()).isEqualTo(5.0);
    }

    @Test
    void aPauseOutsideAnEdgeIsNotCountedAgainstIt() {
        EdgeTail tail = new EdgeTail(List.of("hop"));
        tail.add(new EdgeTail.Edge(10 * MS, 12 * MS, new long[] {2 * MS}));
        tail.addPause(12 * MS, 20 * MS);
        tail.addPause(0, 10 * MS);

        EdgeTail.Summary s = tail.summarize(99);

        assertThat(s.tailShareWithPause()).isZero();
        assertThat(s.tailPauseMeanMs()).isZero();
        assertThat(s.pauseMaxMs()).isEqualTo(10.0);
    }

    @Test
    void noEdgesGiveAnEmptySummaryAndAWrongLegCountIsRefused() {
        EdgeTail tail = new EdgeTail(List.of("hop", "queue"));

        assertThat(tail.summarize(99).tailEdges()).isZero();
        assertThat(tail.summarize(99).burst().tailEdges()).isZero();
        assertThat(tail.summarize(99).thresholdMs()).isNaN();
        assertThatThrownBy(() -> tail.add(new EdgeTail.Edge(0, 1, new long[] {1})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 legs");
    }
}
