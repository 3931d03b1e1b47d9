package io.swale.definition;

/**
 * A definition that could not be read or does not have the shape of §1 (malformed TOML/YAML, unknown
 * or missing key, wrong type, bad enum value). Loading stops; no fault list is produced.
 */
public final class DefinitionParseException extends RuntimeException {
    public DefinitionParseException(String message) {
        super(message);
    }

    public DefinitionParseException(String message, Throwable cause) {
        super(message, cause);
    }
}
