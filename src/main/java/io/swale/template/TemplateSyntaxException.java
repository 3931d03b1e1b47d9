package io.swale.template;

/** A string that is not a valid template: an unclosed {@code {{} or an invalid reference. */
public final class TemplateSyntaxException extends RuntimeException {
    public TemplateSyntaxException(String message) {
        super(message);
    }
}
