package io.swale.definition;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.toml.TomlFactory;
import tools.jackson.dataformat.toml.TomlMapper;
import tools.jackson.dataformat.toml.TomlReadFeature;
import tools.jackson.dataformat.yaml.YAMLAnchorReplayingFactory;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Turns definition bytes into a syntax tree; the shape is checked afterwards by {@link ShapeReader}. */
final class DocumentParser {
    // Jackson 3.2 bounds nesting at 500 with a message naming its own setting: swale.limits.depth is the bound
    // users configure and are told of (DefinitionLimits), checked on the tree, and the body size bounds the text
    private static final ObjectMapper TOML = TomlMapper.builder(TomlFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(Integer.MAX_VALUE).build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // a date or time is its own TOML type: read as text by default, `pool = 2026-09-15` passed as a string
            .enable(TomlReadFeature.PARSE_JAVA_TIME)
            .build();

    // the replaying factory resolves aliases (and merge keys its own way); the plain one reads an alias as its anchor's name
    /**
     * snakeyaml-engine's reader fails (IndexOutOfBoundsException) when a surrogate pair straddles the end of
     * its 1,024-code-point buffer, e.g. a string of 1,100 emoji; a buffer as large as any accepted body
     * ({@code swale.limits.body-size}, 1 MB by default) keeps valid text readable.
     */
    static final LoadSettings LOAD = LoadSettings.builder().setBufferSize(1 << 20).build();

    private static final ObjectMapper YAML = YAMLMapper.builder(
                    (YAMLFactory) YAMLAnchorReplayingFactory.builder().loadSettings(LOAD).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    // what YamlMerges wrote has no aliases and no merge keys: a plain `<<` in it is a key like any other
    private static final ObjectMapper YAML_RESOLVED = YAMLMapper.builder(
                    YAMLFactory.builder().loadSettings(LOAD).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private DocumentParser() {}

    /** Decodes strictly: a definition is UTF-8 text, and a replacement character would change its meaning. */
    static String decode(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new DefinitionParseException("cannot read definition: the text is not valid UTF-8 (" + e + ")", e);
        }
    }

    static JsonNode parse(String text, DefinitionFormat format) {
        return parse(text, format, DefinitionLimits.DEFAULT);
    }

    static JsonNode parse(String text, DefinitionFormat format, DefinitionLimits limits) {
        ObjectMapper mapper = format == DefinitionFormat.YAML ? YAML : TOML;
        // a byte order mark (Windows editors write one) is not part of the document; the hash still covers it
        text = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (format == DefinitionFormat.TOML) {
            // Jackson's TOML reader keeps a CRLF inside a multi-line string as it is; TOML lets a reader make it a
            // newline, swale's reader does, and a command that ends its lines in CR fails in sh
            text = text.replace("\r\n", "\n");
        }
        try {
            if (format == DefinitionFormat.YAML) {
                Optional<String> resolved = YamlMerges.resolve(text, YamlAliases.check(text, limits), limits);
                if (resolved.isPresent()) {
                    return YAML_RESOLVED.readTree(resolved.get());
                }
            }
            JsonNode tree = mapper.readTree(text);
            if (format == DefinitionFormat.TOML) {
                refuseWideIntegers(tree);
            }
            return tree;
        } catch (JacksonException e) {
            String hint = format == DefinitionFormat.YAML ? unquotedTemplate(text) : "";
            throw new DefinitionParseException("malformed " + format + ": " + explain(e) + hint, e);
        } catch (DefinitionParseException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // a parser's own bug (snakeyaml-engine on some long non-BMP strings) is still the text's fault to report
            throw new DefinitionParseException("malformed " + format + ": the parser failed on this text ("
                    + e.getClass().getSimpleName() + ")", e);
        }
    }

    /**
     * TOML's integers are signed 64-bit, and one that does not fit is an error of the document (TOML 1.0: "an error
     * must be thrown"). Jackson's reader makes a BigInteger of a literal by its digits (a 16-digit hex literal is
     * one, in range or not), so the value decides.
     */
    private static void refuseWideIntegers(JsonNode tree) {
        TreeSearch.first(tree, node -> node.isBigInteger() && node.bigIntegerValue().bitLength() > 63).ifPresent(f -> {
            String path = f.path().startsWith(".") ? f.path().substring(1) : f.path();
            throw new DefinitionParseException("malformed TOML: the integer " + abbreviated(
                    f.value().bigIntegerValue().toString()) + " at `" + abbreviated(path) + "` does not fit in 64 bits"
                    + " (a TOML integer lies in -2^63..2^63-1)");
        });
    }

    private static String abbreviated(String text) {
        return text.length() > 200 ? text.substring(0, 100) + "…" + text.substring(text.length() - 100) : text;
    }

    /** A value that starts a template, unquoted: YAML reads {@code {{ partition }}} as a mapping in a mapping. */
    private static final Pattern UNQUOTED_TEMPLATE = Pattern.compile("^(?:[^#\"']*:|\\s*-)\\s+\\{\\{");

    /** Advice for the first value of the text that starts with an unquoted template; empty when there is none. */
    private static String unquotedTemplate(String text) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (UNQUOTED_TEMPLATE.matcher(lines[i]).find()) {
                return "; line " + (i + 1) + " starts a value with `{{`, which YAML reads as a mapping: quote the"
                        + " value, as in `command: \"{{ partition }}\"`";
            }
        }
        return "";
    }

    private static String explain(JacksonException e) {
        String why = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage().strip();
        TokenStreamLocation at = e.getLocation();
        if (at == null || at.getLineNr() < 1) {
            return why;
        }
        return why + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }
}
