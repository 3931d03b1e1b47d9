package io.swale.store.redis;

import io.swale.record.GraphRecord;
import io.swale.record.RecordCodec;
import io.swale.store.DefinitionStore;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Definition texts (immutable, by hash), current pointers, graph records and adoption refusals. */
public final class RedisDefinitionStore implements DefinitionStore {
    private static final Logger log = LoggerFactory.getLogger(RedisDefinitionStore.class);
    private final JedisPool pool;
    private final RedisKeys keys;

    public RedisDefinitionStore(JedisPool pool, String prefix) {
        this.pool = pool;
        this.keys = new RedisKeys(prefix);
    }

    @Override
    public void putText(String hash, StoredText text) {
        try (Jedis j = pool.getResource()) {
            j.hset(keys.definition(hash), Map.of("text", text.text(), "format", text.format()));
        }
    }

    @Override
    public Optional<StoredText> text(String hash) {
        try (Jedis j = pool.getResource()) {
            Map<String, String> h = j.hgetAll(keys.definition(hash));
            if (h == null || !h.containsKey("text")) {
                return Optional.empty();
            }
            return Optional.of(new StoredText(h.get("text"), h.getOrDefault("format", "toml")));
        }
    }

    @Override
    public SortedMap<String, String> currentPointers() {
        try (Jedis j = pool.getResource()) {
            return new TreeMap<>(j.hgetAll(keys.currentPointers()));
        }
    }

    @Override
    public boolean movePointer(String graph, String hash) {
        try (Jedis j = pool.getResource()) {
            String old = j.hget(keys.currentPointers(), graph);
            if (hash.equals(old)) {
                return false;
            }
            j.hset(keys.currentPointers(), graph, hash);
            return true;
        }
    }

    @Override
    public SortedMap<String, GraphRecord> graphRecords() {
        SortedMap<String, GraphRecord> out = new TreeMap<>();
        try (Jedis j = pool.getResource()) {
            j.hgetAll(keys.graphRecords()).forEach((graph, json) -> {
                try {
                    out.put(graph, GraphRecordCodec.decode(graph, json));
                } catch (RuntimeException e) {
                    log.warn("skipping malformed graph record graph={} error={}", graph, e.getMessage());
                }
            });
        }
        return out;
    }

    @Override
    public Optional<GraphRecord> graphRecord(String graph) {
        try (Jedis j = pool.getResource()) {
            String json = j.hget(keys.graphRecords(), graph);
            return json == null ? Optional.empty()
                    : Optional.of(GraphRecordCodec.decode(keys.graphRecords() + "/" + graph, json));
        }
    }

    @Override
    public void putGraphRecord(String graph, GraphRecord record) {
        try (Jedis j = pool.getResource()) {
            j.hset(keys.graphRecords(), graph, GraphRecordCodec.encode(record));
        }
    }

    @Override
    public void putRefusal(String graph, Refusal refusal) {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        o.put("hash", refusal.hash());
        o.put("reason", refusal.reason());
        o.put("at_ms", refusal.atMs());
        try (Jedis j = pool.getResource()) {
            j.hset(keys.refusals(), graph, RecordCodec.text(o));
        }
    }

    @Override
    public void clearRefusal(String graph) {
        try (Jedis j = pool.getResource()) {
            j.hdel(keys.refusals(), graph);
        }
    }

    @Override
    public SortedMap<String, Refusal> refusals() {
        SortedMap<String, Refusal> out = new TreeMap<>();
        try (Jedis j = pool.getResource()) {
            j.hgetAll(keys.refusals()).forEach((graph, json) -> {
                JsonNode o = RecordCodec.JSON.readTree(json);
                out.put(graph, new Refusal(o.path("hash").asString(""), o.path("reason").asString(""),
                        o.path("at_ms").asLong()));
            });
        }
        return out;
    }
}
