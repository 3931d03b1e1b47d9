package io.swale.operator;

import tools.jackson.databind.JsonNode;

/**
 * One kind of task: checks its parameters when a definition loads and runs one attempt of a step.
 * Implementations are pure Java (no Spring, Kafka or Redis) and must be idempotent per attempt.
 */
public interface Operator {
    /** The name definitions use in {@code operator = "…"}. */
    String name();

    /**
     * Checks params as written, before templates are rendered; throws {@link InvalidParamsException}
     * with the deserializer's explanation when they do not fit this operator's parameter type.
     */
    void checkParams(JsonNode params);

    /**
     * Runs one attempt. Blocks until the attempt ends; must return promptly once
     * {@link AttemptContext#cancellation()} fires (kill the process, abandon the request).
     */
    OperatorResult execute(AttemptContext context);

    /** Whether this operator can only be checked, not run (§8.8). */
    default boolean checkOnly() {
        return false;
    }
}
