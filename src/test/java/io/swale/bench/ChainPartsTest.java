package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChainPartsTest {

    @Test
    void aChainsMakespanIsSplitIntoItsEdgesAtTheirMeanItsInstancesItsStartAndItsEnd() {
        ShapeResult chain = new ShapeResult("chain", 1, 10);
        // nine edges: eight of 4 ms and one of 12 ms, so a p50 of 4 ms and a mean of 4.889 ms
        for (int i = 0; i < 8; i++) {
            chain.edge.recordUs(4_000);
        }
        chain.edge.recordUs(12_000);
        for (int i = 0; i < 10; i++) {
            chain.startedToTerminated.recordUs(800);
        }
        chain.requestedToFirstStarted.recordUs(2_000);
        chain.lastTerminatedToSettled.recordUs(1_000);
        chain.makespan.recordUs(54_000);

        assertThat(ChainParts.of(chain)).containsExactly(
                java.util.Map.entry("makespan", 13.5),
                java.util.Map.entry("edges_at_their_mean", 11.0),
                java.util.Map.entry("instances_at_their_mean", 2.0),
                java.util.Map.entry("start", 0.5),
                java.util.Map.entry("end", 0.25));
    }
}
