package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The catch-up check counts a partition with records but no committed offset as behind. */
class ConsumerGroupsTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);
    private static final TopicPartition P2 = new TopicPartition("t", 2);

    @Test
    void aPartitionWithRecordsAndNoCommitIsBehind() {
        Map<TopicPartition, Long> ends = Map.of(P0, 5L, P1, 2L, P2, 0L);

        assertThat(ConsumerGroups.behind(Map.of(P0, new OffsetAndMetadata(5)), ends)).containsExactly(P1);
        assertThat(ConsumerGroups.behind(Map.of(), ends)).containsExactlyInAnyOrder(P0, P1);
    }

    @Test
    void committedToTheEndOfEveryPartitionWithRecordsIsCaughtUp() {
        Map<TopicPartition, Long> ends = Map.of(P0, 5L, P1, 2L, P2, 0L);

        assertThat(ConsumerGroups.behind(Map.of(P0, new OffsetAndMetadata(5), P1, new OffsetAndMetadata(2)), ends))
                .isEmpty();
        assertThat(ConsumerGroups.behind(Map.of(P0, new OffsetAndMetadata(4), P1, new OffsetAndMetadata(2)), ends))
                .containsExactly(P0);
    }
}
