package io.swale.template;

import java.math.BigDecimal;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Decimals as an upstream's program wrote them: Jackson writes a double the way Java prints it, so an output of
 * {@code 1758000000.25} would be inserted as {@code 1.75800000025E9} and {@code 0.0005} as {@code 5.0E-4}.
 * From 1e-6 up to 1e21 (the bounds of plain digits in JavaScript) a decimal is written with its shortest digits and
 * no exponent (a whole one as {@code 10000000.0}); outside them, in Java's exponent form, which is still JSON.
 */
final class PlainNumbers {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private PlainNumbers() {}

    /** A copy of {@code value} with its doubles at any depth made plain (a JSON reader makes no floats). */
    static JsonNode of(JsonNode value) {
        if (value.isDouble()) {
            return plain(value.asDouble());
        }
        if (value.isObject()) {
            ObjectNode out = NODES.objectNode();
            for (Map.Entry<String, JsonNode> e : value.properties()) {
                out.set(e.getKey(), of(e.getValue()));
            }
            return out;
        }
        if (value.isArray()) {
            var out = NODES.arrayNode();
            value.values().forEach(v -> out.add(of(v)));
            return out;
        }
        return value;
    }

    private static JsonNode plain(double d) {
        // Double.toString has the shortest digits that read back as the same double, in exponent form only below
        // 1e-3 and from 1e7
        String java = Double.toString(d);
        if (!Double.isFinite(d) || java.indexOf('E') < 0) {
            return NODES.numberNode(d);
        }
        BigDecimal digits = new BigDecimal(java).stripTrailingZeros();
        int exponent = digits.precision() - digits.scale() - 1;
        if (exponent < -6 || exponent >= 21) {
            return NODES.numberNode(d);
        }
        // a whole number keeps the ".0" that marks it a decimal, as 1.0 has it
        return NODES.numberNode(digits.scale() <= 0 ? digits.setScale(1) : digits);
    }
}
