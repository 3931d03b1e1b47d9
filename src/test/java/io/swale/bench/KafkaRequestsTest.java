package io.swale.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaRequestsTest {

    @Test
    void anUnknownSourceIsRefusedByName() {
        assertThatThrownBy(() -> new KafkaRequests("brokers", () -> 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("`brokers`")
                .hasMessageContaining("auto, broker or clients");
    }

    @Test
    void theClientsSourceIsTakenWhenAskedFor() {
        assertThat(new KafkaRequests("clients", () -> 0).source()).isEqualTo(KafkaRequests.Source.CLIENTS);
    }

    @Test
    void recordsPerProduceRequestIsZeroWithoutAProduce() {
        assertThat(new KafkaRequests.Counts(4, 0, 0, 4, 30).recordsPerProduce()).isEqualTo(7.5);
        assertThat(new KafkaRequests.Counts(0, 3, 0, 3, 0).recordsPerProduce()).isZero();
    }

    @Test
    void countsSubtractAndLeaveTheBenchsOwnRequestsOutOfTheOthers() {
        var before = new KafkaRequests.Counts(10, 20, 5, 50, 30);
        var after = new KafkaRequests.Counts(14, 29, 7, 70, 42).less(3);

        var d = after.minus(before);

        assertThat(d).isEqualTo(new KafkaRequests.Counts(4, 9, 2, 17, 12));
        assertThat(d.other()).isEqualTo(2);
    }

    @Test
    void aFetchMeteredTwiceByTheBrokerCountsOnce() {
        var counts = KafkaRequests.tally(Map.of("Produce", 3L, "Fetch", 5L, "FetchConsumer", 4L, "FetchFollower", 1L,
                "OffsetCommit", 2L, "Heartbeat", 7L), 9);

        assertThat(counts).isEqualTo(new KafkaRequests.Counts(3, 5, 2, 17, 9));
        assertThat(counts.other()).isEqualTo(7);
    }
}
