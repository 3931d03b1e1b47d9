package io.swale.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Partition;
import io.swale.task.SwaleException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The three forms of a trigger message (interfaces §3, spec §4.6) and what is malformed. */
class TriggerMessagesTest {

    private static Trigger parse(String value, Map<String, String> headers) {
        return TriggerMessages.parse(value == null ? null : value.getBytes(StandardCharsets.UTF_8),
                name -> Optional.ofNullable(headers.get(name)));
    }

    @Test
    void explicitStart() {
        assertThat(parse("{\"graph\":\"orders_daily\",\"partitions\":[\"20260915\",\"none\"]}", Map.of()))
                .isEqualTo(new Trigger.Start("orders_daily", List.of(Partition.of("20260915"), Partition.NONE)));
    }

    @Test
    void byTime() {
        assertThat(parse("{\"graph\":\"orders_daily\",\"time\":\"2026-09-15T02:00:00Z\"}", Map.of()))
                .isEqualTo(new Trigger.AtTime("orders_daily", Instant.parse("2026-09-15T02:00:00Z").toEpochMilli()));
        assertThat(parse("{\"graph\":\"g\",\"time\":\"2026-09-15T04:00:00.250+02:00\"}", Map.of()))
                .isEqualTo(new Trigger.AtTime("g", Instant.parse("2026-09-15T02:00:00.250Z").toEpochMilli()));
    }

    @Test
    void cronFiringFromHeaders() {
        assertThat(parse("", Map.of(TriggerHeaders.GRAPH, "g", TriggerHeaders.FIRE_MS, "1789524000000",
                TriggerHeaders.PREVIOUS_FIRE_MS, "1789437600000")))
                .isEqualTo(new Trigger.CronFiring("g", Optional.of(1789524000000L), Optional.of(1789437600000L)));
        assertThat(parse(null, Map.of(TriggerHeaders.GRAPH, "g", TriggerHeaders.PREVIOUS_FIRE_MS, "-5")))
                .isEqualTo(new Trigger.CronFiring("g", Optional.empty(), Optional.empty()));
        assertThat(parse(null, Map.of(TriggerHeaders.GRAPH, "g", TriggerHeaders.PREVIOUS_FIRE_MS, "99999999999999999999")))
                .isEqualTo(new Trigger.CronFiring("g", Optional.empty(), Optional.empty()));
    }

    @Test
    void aCronFiringWithoutGraphHeaderIsPermanent() {
        assertThatThrownBy(() -> parse("", Map.of(TriggerHeaders.PREVIOUS_FIRE_MS, "1")))
                .isInstanceOfSatisfying(SwaleException.Malformed.class, e -> {
                    assertThat(e).isInstanceOf(SwaleException.Permanent.class);
                    assertThat(e.getMessage()).contains(TriggerHeaders.GRAPH);
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "[1]", "\"text\"", "{}", "{\"graph\":1,\"partitions\":[\"a\"]}",
            "{\"graph\":\"\",\"partitions\":[\"a\"]}", "{\"graph\":\"g\"}", "{\"graph\":\"g\",\"partitions\":[]}",
            "{\"graph\":\"g\",\"partitions\":\"20260915\"}", "{\"graph\":\"g\",\"partitions\":[\"2026-09-15\"]}",
            "{\"graph\":\"g\",\"partitions\":[5]}", "{\"graph\":\"g\",\"time\":\"yesterday\"}",
            "{\"graph\":\"g\",\"time\":1789524000000}", "{\"graph\":\"g\",\"partitions\":[\"a\"],\"time\":\"2026-09-15T02:00:00Z\"}",
            "{\"graph\":\"g\",\"partitions\":[\"a\"],\"extra\":true}"})
    void anythingElseIsMalformed(String value) {
        assertThatThrownBy(() -> parse(value, Map.of(TriggerHeaders.GRAPH, "g")))
                .isInstanceOf(SwaleException.Malformed.class);
    }

    @Test
    void aRefusalShowsOnlyTheStartOfHugeInput() {
        String huge = "x".repeat(150 * 1024);
        for (String value : List.of("{\"graph\":\"g\",\"partitions\":[\"" + huge + "\"]}",
                "{\"graph\":\"" + huge + "\",\"other\":1}", "{\"graph\":\"g\",\"time\":\"" + huge + "\"}",
                "{\"graph\":\"g\",\"" + huge + "")) {
            assertThatThrownBy(() -> parse(value, Map.of())).isInstanceOf(SwaleException.Malformed.class)
                    .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(1024));
        }
    }
}
