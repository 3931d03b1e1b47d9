package io.swale.template;

/** A template that cannot be rendered for this instance; the instance fails (§8.2). */
public final class RenderException extends RuntimeException {
    public RenderException(String message) {
        super(message);
    }
}
