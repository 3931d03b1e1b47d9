package io.swale.template;

/** One piece of a parsed template: literal text or a reference to substitute. */
public sealed interface Part permits Part.Literal, Reference {

    /** Text copied unchanged, a lone {@code }}} included. */
    record Literal(String text) implements Part {
        public Literal {
            java.util.Objects.requireNonNull(text, "text");
        }
    }
}
