package io.swale.operator;

import tools.jackson.databind.JsonNode;

/** {@code noop}: accepts any params table and succeeds at once with its rendered params as output. */
public final class NoopOperator implements Operator {
    public static final String NAME = "noop";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void checkParams(JsonNode params) {
        if (params == null || !params.isObject()) {
            throw new InvalidParamsException("params must be a table (JSON object), not "
                    + (params == null ? "nothing" : params.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
    }

    @Override
    public OperatorResult execute(AttemptContext context) {
        return new OperatorResult.Succeeded(context.params());
    }
}
