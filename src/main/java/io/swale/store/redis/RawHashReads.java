package io.swale.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Builder;
import redis.clients.jedis.ClusterCommandArguments;
import redis.clients.jedis.ClusterPipeline;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.util.KeyValue;

/**
 * HGETALL with each value kept as the bytes Redis sent. A run read takes every node record and task instance of
 * the run, and most of them are never decoded (an event decodes the records it needs); as text each value
 * would be copied once more, which was a tenth of what the scheduler allocated.
 */
final class RawHashReads {
    private static final Builder<Map<String, byte[]>> FIELDS_AS_TEXT_VALUES_AS_BYTES = new Builder<>() {
        @Override
        public Map<String, byte[]> build(Object data) {
            List<?> reply = (List<?>) data;
            Map<String, byte[]> out = HashMap.newHashMap(reply.size() / 2);
            if (!reply.isEmpty() && reply.getFirst() instanceof KeyValue<?, ?>) {
                // a RESP3 map
                for (Object entry : reply) {
                    KeyValue<?, ?> kv = (KeyValue<?, ?>) entry;
                    out.put(new String((byte[]) kv.getKey(), StandardCharsets.UTF_8), (byte[]) kv.getValue());
                }
                return out;
            }
            for (int i = 0; i + 1 < reply.size(); i += 2) {
                out.put(new String((byte[]) reply.get(i), StandardCharsets.UTF_8), (byte[]) reply.get(i + 1));
            }
            return out;
        }

        @Override
        public String toString() {
            return "Map<String, byte[]>";
        }
    };

    private RawHashReads() {}

    static Response<Map<String, byte[]>> hgetAll(AbstractPipeline pipeline, String key) {
        // a cluster pipeline routes a command by the slot its arguments computed from the key
        CommandArguments args = pipeline instanceof ClusterPipeline ? new ClusterCommandArguments(Protocol.Command.HGETALL)
                : new CommandArguments(Protocol.Command.HGETALL);
        return pipeline.executeCommand(new CommandObject<>(args.key(key), FIELDS_AS_TEXT_VALUES_AS_BYTES));
    }
}
