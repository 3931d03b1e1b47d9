package io.swale.definition;

import java.util.Locale;

/** The syntax a definition is written in; both carry the same keys (§1). */
public enum DefinitionFormat {
    TOML,
    YAML;

    /** YAML for {@code .yaml}/{@code .yml} (any case), TOML otherwise: swale's own files are TOML. */
    public static DefinitionFormat fromFileName(String fileName) {
        String lower = fileName == null ? "" : fileName.toLowerCase(Locale.ROOT);
        return lower.endsWith(".yaml") || lower.endsWith(".yml") ? YAML : TOML;
    }

    /** Whether a file name carries one of the definition extensions {@code .toml}, {@code .yaml}, {@code .yml}. */
    public static boolean isDefinitionFileName(String fileName) {
        String lower = fileName == null ? "" : fileName.toLowerCase(Locale.ROOT);
        return lower.endsWith(".toml") || lower.endsWith(".yaml") || lower.endsWith(".yml");
    }

    /** YAML for {@code application/yaml}, {@code application/x-yaml} and {@code text/yaml}; TOML for anything else. */
    public static DefinitionFormat fromContentType(String contentType) {
        if (contentType == null) {
            return TOML;
        }
        int semicolon = contentType.indexOf(';');
        String media = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return switch (media) {
            case "application/yaml", "application/x-yaml", "text/yaml" -> YAML;
            default -> TOML;
        };
    }
}
