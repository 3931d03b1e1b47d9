package io.swale.store.redis;

import io.swale.record.NodeRecord;
import io.swale.record.RecordCodec;
import java.nio.charset.StandardCharsets;

/** Node records as the run's node-records hash keeps them (the record's JSON form, capped at 256 KiB). */
final class NodeRecordCodec {
    private NodeRecordCodec() {}

    static String encode(NodeRecord record) {
        return new String(RecordCodec.encode(record), StandardCharsets.UTF_8);
    }

    /** @param where names the record in a {@link io.swale.record.RecordException} */
    static NodeRecord decode(String where, String json) {
        return RecordCodec.decodeNode(where, json.getBytes(StandardCharsets.UTF_8));
    }
}
