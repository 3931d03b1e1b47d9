package io.swale.graph;

/** A partition key that breaks the rule: 1–16 bytes of {@code [A-Za-z0-9_]}. */
public final class InvalidPartitionException extends IllegalArgumentException {
    private final String text;

    public InvalidPartitionException(String text) {
        super("invalid partition key `" + text + "`: a partition key is 1 to 16 characters of [A-Za-z0-9_]");
        this.text = text;
    }

    public String text() {
        return text;
    }
}
