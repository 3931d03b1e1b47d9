package io.swale.template;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/** A parameter string split into literal text and references (§8.7). */
public final class Template {
    private static final String OPEN = "{{";
    private static final String CLOSE = "}}";

    private final String source;
    private final List<Part> parts;

    private Template(String source, List<Part> parts) {
        this.source = source;
        this.parts = List.copyOf(parts);
    }

    /** Parses {@code text}; there is no escaping, and text outside references is literal. */
    public static Template parse(String text) {
        Objects.requireNonNull(text, "text");
        List<Part> parts = new ArrayList<>();
        int pos = 0;
        while (pos < text.length()) {
            int open = text.indexOf(OPEN, pos);
            if (open < 0) {
                break;
            }
            int close = text.indexOf(CLOSE, open + OPEN.length());
            if (close < 0) {
                int byteOffset = text.substring(0, open).getBytes(StandardCharsets.UTF_8).length;
                throw new TemplateSyntaxException("unclosed `{{` at byte offset " + byteOffset);
            }
            if (open > pos) {
                parts.add(new Part.Literal(text.substring(pos, open)));
            }
            parts.add(ReferenceParser.parse(text.substring(open + OPEN.length(), close).strip()));
            pos = close + CLOSE.length();
        }
        if (pos < text.length()) {
            parts.add(new Part.Literal(text.substring(pos)));
        }
        return new Template(text, parts);
    }

    public String source() {
        return source;
    }

    /** Literal parts and references in text order. */
    public List<Part> parts() {
        return parts;
    }

    public List<Reference> references() {
        return parts.stream().filter(Reference.class::isInstance).map(Reference.class::cast).toList();
    }

    /** The upstream names {@code text} refers to; none when it is no valid template (a checked definition has none). */
    public static List<String> upstreamsOf(String text) {
        try {
            return parse(text).upstreamNodes();
        } catch (TemplateSyntaxException e) {
            return List.of();
        }
    }

    /** Distinct upstream node names referred to, in order of first reference. */
    public List<String> upstreamNodes() {
        LinkedHashSet<String> nodes = new LinkedHashSet<>();
        for (Part p : parts) {
            if (p instanceof Reference r && r.unfiltered() instanceof Reference.Upstream u) {
                nodes.add(u.node());
            }
        }
        return List.copyOf(nodes);
    }

    /** Whether the text holds no reference, so rendering returns it unchanged. */
    public boolean isLiteral() {
        return parts.stream().noneMatch(Reference.class::isInstance);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Template t && t.source.equals(source);
    }

    @Override
    public int hashCode() {
        return source.hashCode();
    }

    @Override
    public String toString() {
        return source;
    }
}
