package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.record.GraphRecord;
import io.swale.record.GraphRunRecord;
import io.swale.record.RecordException;
import io.swale.record.RunState;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Run and graph records as stored: stable text (compared byte for byte) that reads back equal. */
class RunRecordCodecTest {
    @Test
    void aRunRecordKeepsTheSpecsKeysInOrderAndReadsBackEqual() {
        TreeMap<String, Long> expected = new TreeMap<>();
        expected.put("load", 2L);
        GraphRunRecord run = new GraphRunRecord("h", 10, RunState.COMPLETE, Optional.of(20L), expected);
        String text = RunRecordCodec.encode(run);
        assertThat(text).isEqualTo("{\"definition\":\"h\",\"requested_at_ms\":10,\"state\":\"complete\","
                + "\"settled_at_ms\":20,\"expected_reruns\":{\"load\":2}}");
        assertThat(RunRecordCodec.decode("k", text)).isEqualTo(run);
        GraphRunRecord started = GraphRunRecord.started("h", 1);
        assertThat(RunRecordCodec.decode("k", RunRecordCodec.encode(started))).isEqualTo(started);
    }

    @Test
    void aMalformedRunRecordNamesItsKey() {
        assertThatThrownBy(() -> RunRecordCodec.decode("run:g/p", "{\"definition\":\"h\"}"))
                .isInstanceOf(RecordException.class).hasMessageContaining("run:g/p")
                .hasMessageContaining("requested_at_ms");
        assertThatThrownBy(() -> RunRecordCodec.decode("run:g/p", "[]")).isInstanceOf(RecordException.class);
    }

    @Test
    void aGraphRecordReadsBackEqual() {
        GraphRecord g = new GraphRecord("h", 5);
        assertThat(GraphRecordCodec.encode(g)).isEqualTo("{\"definition\":\"h\",\"adopted_at_ms\":5}");
        assertThat(GraphRecordCodec.decode("g", GraphRecordCodec.encode(g))).isEqualTo(g);
    }
}
