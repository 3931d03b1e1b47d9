package io.swale.definition;

import tools.jackson.databind.JsonNode;

/**
 * What checking a definition needs to know of the operators: whether one exists and whether a node's params
 * suit it. The operator registry answers it, so the definition rules stay free of operator implementations.
 */
public interface OperatorCatalog {
    /** The verdict on one node's operator and params. */
    sealed interface ParamsCheck {
        record Valid() implements ParamsCheck {}

        record UnknownOperator() implements ParamsCheck {}

        /** @param why what is wrong with the params, as the operator explains it */
        record Invalid(String why) implements ParamsCheck {}
    }

    ParamsCheck check(String operator, JsonNode params);
}
