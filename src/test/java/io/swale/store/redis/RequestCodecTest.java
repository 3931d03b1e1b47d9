package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.AdminRequest;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stored request record: the spec's keys in order, and a round trip for every request kind. */
class RequestCodecTest {
    @Test
    void recordsKeepTheSpecsKeysInOrderAndRoundTrip() {
        RequestRecord r = new RequestRecord("id1", new AdminRequest.Rerun("orders", Partition.of("20260915"), "transform"),
                42, new RequestOutcome.Rerun("orders-20260915-transform-r1"), false);
        String json = RequestCodec.encode(r);
        assertThat(json).isEqualTo("{\"request\":{\"kind\":\"rerun\",\"graph\":\"orders\",\"partition\":\"20260915\","
                + "\"node\":\"transform\"},\"handled_at_ms\":42,\"outcome\":{\"kind\":\"rerun\","
                + "\"run_id\":\"orders-20260915-transform-r1\"}}");
        assertThat(RequestCodec.decode("id1", json)).isEqualTo(r);
        RequestRecord start = new RequestRecord("id2", new AdminRequest.Start("orders", List.of(Partition.of("a"))), 1,
                new RequestOutcome.Started(List.of()), false);
        assertThat(RequestCodec.decode("id2", RequestCodec.encode(start))).isEqualTo(start);
        RequestRecord cancel = new RequestRecord("id3", new AdminRequest.Cancel("orders", Partition.of("a")), 1,
                new RequestOutcome.Refused("no"), false);
        assertThat(RequestCodec.decode("id3", RequestCodec.encode(cancel))).isEqualTo(cancel);
    }
}
