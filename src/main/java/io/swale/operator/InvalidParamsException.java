package io.swale.operator;

/** Params that do not fit an operator's parameter type. */
public final class InvalidParamsException extends RuntimeException {
    public InvalidParamsException(String explanation) {
        super(explanation);
    }
}
