package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class TakeoverListenerTest {
    @Test
    void onlyPartitionsNewlyAssignedTellOfATakeover() {
        AtomicInteger takeovers = new AtomicInteger();
        TakeoverListener listener = new TakeoverListener(takeovers::incrementAndGet);

        // a cooperative rebalance that moves nothing to this member names no partition
        listener.onPartitionsAssigned(List.of());
        listener.onPartitionsRevoked(List.of(new TopicPartition("swale.events", 1)));
        assertThat(takeovers.get()).isZero();

        listener.onPartitionsAssigned(List.of(new TopicPartition("swale.events", 1)));
        assertThat(takeovers.get()).isEqualTo(1);
    }
}
