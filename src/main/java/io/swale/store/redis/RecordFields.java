package io.swale.store.redis;

import io.swale.record.RecordException;
import tools.jackson.databind.JsonNode;

/** Strict field reads for the stored records: a missing or mistyped field names the record it is in. */
final class RecordFields {
    private RecordFields() {}

    static String requiredText(String key, JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isString()) {
            throw notText(key, field);
        }
        return v.asString();
    }

    static long requiredLong(String key, JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
            throw notUnsigned(key, field);
        }
        return v.asLong();
    }

    static RecordException notText(String key, String field) {
        return new RecordException(key, "`" + field + "` is missing or not a string");
    }

    static RecordException notUnsigned(String key, String field) {
        return new RecordException(key, "`" + field + "` is missing or not an unsigned integer");
    }
}
