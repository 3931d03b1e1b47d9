package io.swale.store.redis;

import io.swale.record.RecordCodec;
import io.swale.record.RecordException;
import java.util.function.Supplier;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;

/**
 * Reads a stored JSON object one top-level field at a time, without building a tree of it. The scheduler reads
 * every node record and task instance of a run on each event that reaches it, so the tree's nodes and maps
 * were most of what it allocated; a field's value becomes a tree only where the caller asks ({@link #tree}).
 * Strict as {@link RecordCodec#parseObject}: not an object, bad JSON or content after it is a
 * {@link RecordException} naming the record.
 */
final class StoredObject {
    /** Takes one field; the parser stands on its value. A structured value it does not read is skipped. */
    @FunctionalInterface
    interface Fields {
        void field(String name, JsonParser value);
    }

    // a field's value is read mid-object: what follows it is the rest of the object, not trailing content
    private static final ObjectReader SUB_TREE = RecordCodec.JSON.reader()
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private StoredObject() {}

    static void read(String key, String text, Fields fields) {
        read(key, () -> RecordCodec.JSON.createParser(text), fields);
    }

    /** As {@link #read(String, String, Fields)}, from the UTF-8 bytes Redis sent. */
    static void read(String key, byte[] utf8, Fields fields) {
        read(key, () -> RecordCodec.JSON.createParser(utf8), fields);
    }

    private static void read(String key, Supplier<JsonParser> parser, Fields fields) {
        try (JsonParser p = parser.get()) {
            walk(key, p, fields);
        } catch (JacksonException e) {
            throw new RecordException(key, e.getOriginalMessage());
        }
    }

    private static void walk(String key, JsonParser p, Fields fields) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new RecordException(key, "not a JSON object");
        }
        for (String name = p.nextName(); name != null; name = p.nextName()) {
            JsonToken value = p.nextToken();
            fields.field(name, p);
            if (value.isStructStart() && p.currentToken() == value) {
                p.skipChildren();
            }
        }
        if (p.nextToken() != null) {
            throw new RecordException(key, "content after the JSON object");
        }
    }

    static String requiredText(String key, JsonParser p, String field) {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw RecordFields.notText(key, field);
        }
        return p.getString();
    }

    /** An integer of 0 or more that fits a long, as {@link RecordFields#requiredLong} takes it from a tree. */
    static long requiredUnsigned(String key, JsonParser p, String field) {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                || p.getLongValue() < 0) {
            throw RecordFields.notUnsigned(key, field);
        }
        return p.getLongValue();
    }

    /** The value as a tree (a JSON null as a null node), the parser left on its last token. */
    static JsonNode tree(JsonParser p) {
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return RecordCodec.JSON.getNodeFactory().nullNode();
        }
        return SUB_TREE.readTree(p);
    }
}
