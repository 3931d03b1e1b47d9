package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Partition;
import io.swale.store.RunKey;
import io.swale.task.SwaleException;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Spec §5.6, §7.6: a payload that is not a task-terminated event, its status included, is permanent. */
class EventsListenerParseTest {
    private static ConsumerRecord<String, byte[]> record(String json) {
        return new ConsumerRecord<>("swale.events", 0, 0L, "g/p", json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anEventNamesItsRunAndNode() {
        assertThat(EventsListener.parse(record("{\"graph\":\"g\",\"partition\":\"p\",\"node\":\"a\",\"status\":\"failed\"}")))
                .isEqualTo(new EventsListener.Event(new RunKey("g", Partition.of("p")), "a"));
    }

    /** Was: accepted without a status, or with one that is none of the three. */
    @Test
    void anEventWithoutAValidStatusIsMalformed() {
        for (String json : new String[] {"{\"graph\":\"g\",\"partition\":\"p\",\"node\":\"a\"}",
                "{\"graph\":\"g\",\"partition\":\"p\",\"node\":\"a\",\"status\":\"done\"}",
                "{\"graph\":\"g\",\"partition\":\"p\",\"node\":\"a\",\"status\":1}"}) {
            assertThatThrownBy(() -> EventsListener.parse(record(json))).as(json)
                    .isInstanceOf(SwaleException.Malformed.class).hasMessageContaining("`status`");
        }
    }
}
