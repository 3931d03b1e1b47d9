package io.swale.definition;

/** A duration text that does not follow §1.5; the message names the text and the accepted form. */
public final class InvalidDurationException extends IllegalArgumentException {
    private final String text;

    InvalidDurationException(String text, String why) {
        super("invalid duration `" + text + "`: " + why
                + "; the accepted form is digits followed by one unit s, m, h or d, e.g. `30s`, `5m`, `6h`, `7d`");
        this.text = text;
    }

    public String text() {
        return text;
    }
}
