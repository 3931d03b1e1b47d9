package io.swale.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Partition;
import io.swale.task.SwaleException;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestsTest {
    @Test
    void ulidsAre26CrockfordCharactersSortingByTime() {
        RequestId a = RequestId.generate(1_700_000_000_000L);
        RequestId b = RequestId.generate(1_700_000_000_001L);
        assertThat(a.value()).matches("[0-9A-HJKMNP-TV-Z]{26}");
        assertThat(a.value().compareTo(b.value())).isNegative();
        assertThat(RequestId.generate(0).value()).startsWith("0000000000");
    }

    @Test
    void requestIdsAreValidated() {
        assertThat(RequestId.isValid("a-b_C9")).isTrue();
        assertThat(RequestId.isValid("x".repeat(64))).isTrue();
        assertThat(RequestId.isValid("x".repeat(65))).isFalse();
        assertThat(RequestId.isValid("")).isFalse();
        assertThat(RequestId.isValid("a b")).isFalse();
        assertThatThrownBy(() -> new RequestId("é")).hasMessageContaining("`é`").hasMessageContaining("[A-Za-z0-9_-]");
    }

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

    @Test
    void refusalsAreClassifiedBackFromTheirText() {
        assertThat(Refusals.classify(Refusals.active("g-p-n-r1"))).isEqualTo(new Refusals.Kind.Active("g-p-n-r1"));
        assertThat(Refusals.classify(Refusals.notReady("n"))).isEqualTo(new Refusals.Kind.NotReady("n"));
        assertThat(Refusals.classify(Refusals.noRecord("n"))).isEqualTo(new Refusals.Kind.NoRecord("n"));
        assertThat(Refusals.classify(Refusals.notActive("g", "p"))).isEqualTo(new Refusals.Kind.NotActive());
        assertThat(Refusals.classify(new SwaleException.UnknownGraph("g").getMessage()))
                .isEqualTo(new Refusals.Kind.Unknown());
        assertThat(Refusals.classify(new SwaleException.UnknownGraphRun("g", "p").getMessage()))
                .isEqualTo(new Refusals.Kind.Unknown());
        assertThat(Refusals.classify(new SwaleException.UnknownNode("g", "n").getMessage()))
                .isEqualTo(new Refusals.Kind.Unknown());
        assertThat(Refusals.classify("something else")).isEqualTo(new Refusals.Kind.Other());
    }
}
