package io.swale.operator;

import java.nio.charset.StandardCharsets;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.type.LogicalType;

/**
 * JSON helpers shared by the built-in operators: the strict params mapper, parsing of program and
 * response output, ASCII trimming and the 512-byte text tails that error messages carry.
 */
final class OperatorJson {
    /** Bytes kept of stderr or a response body in an error message. */
    /**
     * An output (a program's stdout, a response body) beyond this many bytes is not held in memory: its record says
     * it was omitted (§5.4), as it would be for its size in any case, unless all but a sliver of it were whitespace.
     */
    static final int MAX_HELD_OUTPUT_BYTES = 64 * 1024 * 1024;
    static final int TAIL_BYTES = 512;

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * Unknown keys, trailing tokens and scalar coercions (a number where a string is expected, a
     * string where a list is expected) are all rejected.
     */
    static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
            .disable(DeserializationFeature.UNWRAP_SINGLE_VALUE_ARRAYS)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(LogicalType.Textual, c -> c
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .build();

    /** Advice in Jackson's coercion errors meant for programmers, not definition authors. */
    private static final String COERCION_HINT = " (but could if coercion was enabled using `CoercionConfig`)";

    private OperatorJson() {}

    /**
     * Reads {@code params} into the operator's parameter record.
     *
     * @throws InvalidParamsException with the deserializer's explanation
     */
    static <T> T readParams(JsonNode params, Class<T> type) {
        if (params == null || !params.isObject()) {
            throw new InvalidParamsException("params must be a table (JSON object), not "
                    + (params == null ? "nothing" : params.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        try {
            return STRICT.treeToValue(params, type);
        } catch (JacksonException e) {
            throw new InvalidParamsException(explain(e));
        }
    }

    /** The deserializer's explanation, with the parameter path when there is one. */
    static String explain(JacksonException e) {
        String path = path(e.getPath());
        String message;
        if (e instanceof ValueInstantiationException && e.getCause() instanceof IllegalArgumentException iae) {
            message = iae.getMessage();
        } else {
            message = e.getOriginalMessage().replace(COERCION_HINT, "");
        }
        return path.isEmpty() ? message : "at `" + path + "`: " + message;
    }

    private static String path(List<JacksonException.Reference> refs) {
        StringBuilder b = new StringBuilder();
        for (JacksonException.Reference r : refs) {
            String part = r.getPropertyName() != null ? r.getPropertyName()
                    : r.getIndex() >= 0 ? Integer.toString(r.getIndex()) : null;
            if (part == null) {
                continue;
            }
            if (!b.isEmpty()) {
                b.append('.');
            }
            b.append(part);
        }
        return b.toString();
    }

    /** Whether a params string holds a template reference, to be rendered at step time (§8.7). */
    static boolean isTemplated(String s) {
        return s != null && s.contains("{{");
    }

    /** Parses exactly one JSON value from {@code bytes[from, to)}. */
    static JsonNode parse(byte[] bytes, int from, int to) {
        return STRICT.readTree(bytes, from, to - from);
    }

    static boolean isAsciiWhitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0x0C;
    }

    /** The start of {@code bytes} after leading ASCII whitespace. */
    static int trimStart(byte[] bytes, int length) {
        int i = 0;
        while (i < length && isAsciiWhitespace(bytes[i])) {
            i++;
        }
        return i;
    }

    /** The end of {@code bytes[0, length)} before trailing ASCII whitespace, never before {@code start}. */
    static int trimEnd(byte[] bytes, int start, int length) {
        int j = length;
        while (j > start && isAsciiWhitespace(bytes[j - 1])) {
            j--;
        }
        return j;
    }

    /**
     * The last {@link #TAIL_BYTES} bytes of {@code bytes[0, length)} as text: a UTF-8 sequence cut by
     * the limit is dropped whole, and invalid UTF-8 is replaced.
     */
    static String tail(byte[] bytes, int length) {
        int start = Math.max(0, length - TAIL_BYTES);
        if (start > 0) {
            int skipped = 0;
            while (start < length && skipped < 3 && (bytes[start] & 0xC0) == 0x80) {
                start++;
                skipped++;
            }
        }
        return new String(bytes, start, length - start, StandardCharsets.UTF_8);
    }

    /** A cause for an error message: the exception's kind and message, looking through wrappers. */
    static String describe(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof java.util.concurrent.ExecutionException
                || cur instanceof java.util.concurrent.CompletionException) && cur.getCause() != null) {
            cur = cur.getCause();
        }
        StringBuilder b = new StringBuilder(cur.getClass().getSimpleName());
        if (cur.getMessage() != null && !cur.getMessage().isBlank()) {
            b.append(": ").append(cur.getMessage());
        } else if (cur.getCause() != null && cur.getCause() != cur) {
            b.append(" (").append(describe(cur.getCause())).append(')');
        }
        return b.toString();
    }
}
