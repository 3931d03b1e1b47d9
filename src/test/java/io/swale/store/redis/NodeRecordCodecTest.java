package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.record.RecordException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Node records in the run's node-records hash. */
class NodeRecordCodecTest {
    @Test
    void aRecordKeepsItsStoredBytesAndReadsBackEqual() {
        NodeRecord r = new NodeRecord(NodeStatus.SUCCEEDED, "g-p-n-r1", "h", 1, 42,
                Optional.of(RecordCodec.JSON.readTree("{\"b\":1,\"a\":2}")), false, Optional.empty());
        String text = NodeRecordCodec.encode(r);
        assertThat(text).isEqualTo("{\"status\":\"succeeded\",\"run_id\":\"g-p-n-r1\",\"definition\":\"h\",\"rerun\":1,"
                + "\"terminated_at_ms\":42,\"output\":{\"a\":2,\"b\":1}}");
        assertThat(decode("k", text)).isEqualTo(r);
    }

    @Test
    void aCancelledRecordKeepsItsError() {
        NodeRecord r = new NodeRecord(NodeStatus.CANCELLED, "g-p-n-r0", "h", 0, 7, Optional.empty(), false,
                Optional.of("the graph run was cancelled"));
        assertThat(decode("k", NodeRecordCodec.encode(r))).isEqualTo(r);
    }

    @Test
    void aMalformedRecordNamesWhereItWasRead() {
        assertThatThrownBy(() -> decode("g/p#t:n", "{\"status\":\"odd\"}"))
                .isInstanceOf(RecordException.class).hasMessageContaining("g/p#t:n");
    }

    @Test
    void anOutputThatWouldPassTheCapIsDroppedAndMarkedOmitted() {
        String big = "x".repeat(NodeRecordCodec.MAX_RECORD_BYTES);
        NodeRecord r = new NodeRecord(NodeStatus.SUCCEEDED, "r", "h", 0, 1,
                Optional.of(RecordCodec.JSON.getNodeFactory().stringNode(big)), false, Optional.empty());
        NodeRecord stored = decode("k", NodeRecordCodec.encode(r));
        assertThat(stored.output()).isEmpty();
        assertThat(stored.outputOmitted()).isTrue();
        assertThat(stored.runId()).isEqualTo("r");
    }

    @Test
    void fieldsAreReadInAnyOrderAndUnknownOnesSkippedWhateverTheyHold() {
        NodeRecord r = decode("k", "{\"later\":{\"deep\":[1,{\"x\":[]}]},\"rerun\":2,"
                + "\"output\":{\"rows\":[3,4],\"n\":{\"m\":null}},\"terminated_at_ms\":9,\"definition\":\"h\","
                + "\"run_id\":\"g-p-n-r2\",\"extra\":[[]],\"status\":\"failed\",\"error\":\"boom\"}");

        assertThat(r).isEqualTo(new NodeRecord(NodeStatus.FAILED, "g-p-n-r2", "h", 2, 9,
                Optional.of(RecordCodec.JSON.readTree("{\"rows\":[3,4],\"n\":{\"m\":null}}")), false,
                Optional.of("boom")));
    }

    @Test
    void aNullOutputIsNoOutput() {
        assertThat(decode("k", "{\"status\":\"succeeded\",\"run_id\":\"r\",\"definition\":\"h\","
                + "\"rerun\":0,\"terminated_at_ms\":1,\"output\":null}").output()).isEmpty();
    }

    @Test
    void eachMalformedShapeIsARecordErrorThatSaysWhat() {
        String ok = "\"status\":\"succeeded\",\"run_id\":\"r\",\"definition\":\"h\",\"terminated_at_ms\":1";
        assertThat(malformed("[1]")).contains("not a JSON object");
        assertThat(malformed("")).contains("not a JSON object");
        assertThat(malformed("{" + ok + ",\"rerun\":0} {}")).contains("content after the JSON object");
        assertThat(malformed("{" + ok + ",\"rerun\":0")).contains("k");
        assertThat(malformed("{" + ok + "}")).contains("`rerun` is missing or not an unsigned integer");
        assertThat(malformed("{" + ok + ",\"rerun\":-1}")).contains("`rerun` is missing or not an unsigned integer");
        assertThat(malformed("{" + ok + ",\"rerun\":1.5}")).contains("`rerun` is missing or not an unsigned integer");
        assertThat(malformed("{" + ok + ",\"rerun\":99999999999999999999}"))
                .contains("`rerun` is missing or not an unsigned integer");
        assertThat(malformed("{" + ok.replace("\"r\"", "7") + ",\"rerun\":0}"))
                .contains("`run_id` is missing or not a string");
        assertThat(malformed("{" + ok + ",\"rerun\":0,\"output_omitted\":\"yes\"}")).contains("`output_omitted`");
        assertThat(malformed("{" + ok + ",\"rerun\":0,\"error\":{}}")).contains("`error` is not a string");
    }

    private static String malformed(String text) {
        return org.assertj.core.api.Assertions.catchThrowableOfType(RecordException.class,
                () -> decode("k", text)).getMessage();
    }

    /** The codec reads the bytes Redis sends; the tests write their records as text. */
    private static NodeRecord decode(String key, String text) {
        return NodeRecordCodec.decode(key, text.getBytes(StandardCharsets.UTF_8));
    }
}
