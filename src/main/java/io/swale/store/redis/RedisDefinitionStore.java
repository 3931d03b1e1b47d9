package io.swale.store.redis;

import io.swale.record.GraphRecord;
import io.swale.record.RecordCodec;
import io.swale.store.DefinitionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Definition texts (immutable, by hash), current pointers, graph records and adoption refusals. */
public final class RedisDefinitionStore implements DefinitionStore {
    private static final Logger log = LoggerFactory.getLogger(RedisDefinitionStore.class);
    private static final int HISTORY_CAP = 100;
    private final UnifiedJedis redis;
    private final RedisKeys keys;
    private final RedisScripts scripts = new RedisScripts();

    public RedisDefinitionStore(UnifiedJedis redis, String prefix) {
        this.redis = redis;
        this.keys = new RedisKeys(prefix);
    }

    @Override
    public void putText(String hash, StoredText text) {
        redis.hset(keys.definition(hash), Map.of("text", text.text(), "format", text.format()));
    }

    @Override
    public Optional<StoredText> text(String hash) {
        Map<String, String> h = redis.hgetAll(keys.definition(hash));
        if (h == null || !h.containsKey("text")) {
            return Optional.empty();
        }
        return Optional.of(new StoredText(h.get("text"), h.getOrDefault("format", "toml")));
    }

    @Override
    public SortedMap<String, String> currentPointers() {
        return new TreeMap<>(redis.hgetAll(keys.currentPointers()));
    }

    @Override
    public PointerMove movePointer(String graph, String hash, SortedMap<String, String> asRead) {
        List<String> args = new ArrayList<>(2 + 2 * asRead.size());
        args.add(graph);
        args.add(hash);
        asRead.forEach((g, h) -> {
            args.add(g);
            args.add(h);
        });
        PointerMove move = switch (String.valueOf(scripts.movePointer.call(redis, List.of(keys.currentPointers()), args))) {
            case "moved" -> PointerMove.MOVED;
            case "unchanged" -> PointerMove.UNCHANGED;
            case "stale" -> PointerMove.STALE;
            default -> throw new IllegalStateException("movepointer.lua answered something else");
        };
        if (move == PointerMove.MOVED) {
            appendHistory(graph, new HistoryEntry(hash, "published", RedisTime.nowMs(redis), Optional.empty()));
        }
        return move;
    }

    @Override
    public SortedMap<String, GraphRecord> graphRecords() {
        SortedMap<String, GraphRecord> out = new TreeMap<>();
        redis.hgetAll(keys.graphRecords()).forEach((graph, json) -> {
            try {
                out.put(graph, GraphRecordCodec.decode(graph, json));
            } catch (RuntimeException e) {
                log.warn("skipping malformed graph record graph={} error={}", graph, e.getMessage());
            }
        });
        return out;
    }

    @Override
    public Optional<GraphRecord> graphRecord(String graph) {
        String json = redis.hget(keys.graphRecords(), graph);
        return json == null ? Optional.empty()
                : Optional.of(GraphRecordCodec.decode(keys.graphRecords() + "/" + graph, json));
    }

    @Override
    public void putGraphRecord(String graph, GraphRecord record) {
        redis.hset(keys.graphRecords(), graph, GraphRecordCodec.encode(record));
        appendHistory(graph, new HistoryEntry(record.definition(), "adopted", record.adoptedAtMs(), Optional.empty()));
    }

    @Override
    public void putRefusal(String graph, Refusal refusal) {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        o.put("hash", refusal.hash());
        o.put("reason", refusal.reason());
        o.put("at_ms", refusal.atMs());
        redis.hset(keys.refusals(), graph, RecordCodec.text(o));
        appendHistory(graph, new HistoryEntry(refusal.hash(), "refused", refusal.atMs(), Optional.of(refusal.reason())));
    }

    @Override
    public void clearRefusal(String graph) {
        redis.hdel(keys.refusals(), graph);
    }

    @Override
    public SortedMap<String, Refusal> refusals() {
        SortedMap<String, Refusal> out = new TreeMap<>();
        redis.hgetAll(keys.refusals()).forEach((graph, json) -> {
            JsonNode o = RecordCodec.JSON.readTree(json);
            out.put(graph, new Refusal(o.path("hash").asString(""), o.path("reason").asString(""),
                    o.path("at_ms").asLong()));
        });
        return out;
    }

    @Override
    public List<HistoryEntry> history(String graph, int limit) {
        List<HistoryEntry> out = new ArrayList<>();
        for (String json : redis.lrange(keys.definitionHistory(graph), 0, Math.max(0, limit - 1))) {
            try {
                JsonNode o = RecordCodec.JSON.readTree(json);
                out.add(new HistoryEntry(o.path("hash").asString(""), o.path("event").asString(""),
                        o.path("at_ms").asLong(), Optional.ofNullable(o.path("reason").asString(null))));
            } catch (RuntimeException e) {
                log.warn("skipping malformed definition history entry graph={} error={}", graph, e.getMessage());
            }
        }
        return out;
    }

    /** Kept for operators only (the dashboard's hash history): capped, never read by scheduling. */
    private void appendHistory(String graph, HistoryEntry e) {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        o.put("hash", e.hash());
        o.put("event", e.event());
        o.put("at_ms", e.atMs());
        e.reason().ifPresent(r -> o.put("reason", r));
        redis.lpush(keys.definitionHistory(graph), RecordCodec.text(o));
        redis.ltrim(keys.definitionHistory(graph), 0, HISTORY_CAP - 1);
    }
}
