package io.swale.definition;

import io.swale.operator.AttemptContext;
import io.swale.operator.InvalidParamsException;
import io.swale.operator.Operator;
import io.swale.operator.OperatorRegistry;
import io.swale.operator.OperatorResult;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** Small stand-ins for the real operators: they check the shape of params, and cannot run. */
final class TestOperators {
    private TestOperators() {}

    enum Type { STRING, STRINGS, STRING_TABLE }

    /** An operator whose params are exactly the given keys, those in {@code required} mandatory. */
    record Shaped(String name, Map<String, Type> keys, Set<String> required) implements Operator {
        @Override
        public void checkParams(JsonNode params) {
            for (String key : required) {
                if (!params.has(key)) {
                    throw new InvalidParamsException("missing field `" + key + "`");
                }
            }
            for (Map.Entry<String, JsonNode> e : params.properties()) {
                Type type = keys.get(e.getKey());
                if (type == null) {
                    throw new InvalidParamsException("unknown field `" + e.getKey() + "`");
                }
                if (!fits(type, e.getValue())) {
                    throw new InvalidParamsException("invalid type for `" + e.getKey() + "`: expected " + type);
                }
            }
        }

        private static boolean fits(Type type, JsonNode v) {
            return switch (type) {
                case STRING -> v.isString();
                case STRINGS -> v.isArray() && v.values().stream().allMatch(JsonNode::isString);
                case STRING_TABLE -> v.isObject() && v.values().stream().allMatch(JsonNode::isString);
            };
        }

        @Override
        public OperatorResult execute(AttemptContext context) {
            throw new UnsupportedOperationException("test operator");
        }
    }

    /** Accepts any params. */
    record Anything(String name) implements Operator {
        @Override
        public void checkParams(JsonNode params) {
            // every shape fits
        }

        @Override
        public OperatorResult execute(AttemptContext context) {
            throw new UnsupportedOperationException("test operator");
        }
    }

    static OperatorRegistry registry() {
        return new OperatorRegistry(List.of(
                new Shaped("shell", Map.of("command", Type.STRING, "timeout", Type.STRING, "env", Type.STRING_TABLE),
                        Set.of("command")),
                new Shaped("subprocess", Map.of("argv", Type.STRINGS, "timeout", Type.STRING), Set.of("argv")),
                new Shaped("http", Map.of("method", Type.STRING, "url", Type.STRING, "headers", Type.STRING_TABLE,
                        "body", Type.STRING, "timeout", Type.STRING), Set.of("url")),
                new Shaped("object_exists", Map.of("url", Type.STRING, "interval", Type.STRING, "timeout", Type.STRING),
                        Set.of("url")),
                new Anything("noop")));
    }

    static DefinitionLoader loader() {
        return new DefinitionLoader(registry(), CronCheck.FIVE_FIELDS);
    }
}
