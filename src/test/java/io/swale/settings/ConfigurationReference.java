package io.swale.settings;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The table of every {@code swale.*} property in docs/configuration.md, rendered from the metadata the
 * configuration processor writes at compile time (the javadoc {@code @param} of each settings record, and
 * META-INF/additional-spring-configuration-metadata.json for what is read without binding). The table lives
 * between two markers, so the prose around it is written by hand and survives regeneration.
 */
final class ConfigurationReference {
    static final String PREFIX = "swale.";
    static final String REGENERATE = "./mvnw -o test -Dtest=ConfigurationReferenceTest -Dswale.docs.regenerate=true";
    static final String BEGIN = "<!-- BEGIN GENERATED: every swale.* property, from the configuration metadata. "
            + "Do not edit by hand; regenerate: " + REGENERATE + " -->";
    static final String END = "<!-- END GENERATED -->";
    private static final String HEADER = "| Property | Type | Default | Description |\n|---|---|---|---|\n";
    private static final Pattern CODE = Pattern.compile("\\{@(?:code|literal) ([^}]*)}");
    private static final Pattern LINK = Pattern.compile("\\{@link(?:plain)? ([^}]*)}");
    private static final Pattern PACKAGE = Pattern.compile("\\b[a-z][a-z0-9_]*\\.(?=[a-zA-Z])");
    private static final Pattern ROW = Pattern.compile("^\\| `(swale\\.[^`]+)` \\|.*$", Pattern.MULTILINE);

    /** One property as the metadata describes it. */
    record Property(String name, String type, Optional<String> defaultValue, Optional<String> description) {}

    private ConfigurationReference() {}

    /** The metadata file the processor wrote next to the compiled main classes. */
    static Path metadataFile() {
        try {
            Path classes = Path.of(SwaleProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.resolve("META-INF/spring-configuration-metadata.json");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path documentFile() {
        return Path.of(System.getProperty("basedir", ".")).resolve("docs/configuration.md");
    }

    /** The {@code swale.*} properties of the metadata, by name. */
    static Map<String, Property> properties(Path metadata) throws IOException {
        if (!Files.isRegularFile(metadata)) {
            throw new IllegalStateException(metadata + " is missing: the configuration processor did not run in the main "
                    + "compile (spring-boot-configuration-processor on the default-compile processor path in pom.xml)");
        }
        JsonNode root = JsonMapper.builder().build().readTree(Files.readString(metadata));
        Map<String, Property> out = new TreeMap<>();
        for (JsonNode p : root.path("properties")) {
            String name = p.get("name").asString();
            if (!name.startsWith(PREFIX) || p.has("deprecation")) {
                continue;
            }
            out.put(name, new Property(name, p.path("type").asString(""),
                    Optional.ofNullable(p.get("defaultValue")).filter(v -> !v.isNull()).map(ConfigurationReference::value),
                    Optional.ofNullable(p.get("description")).map(JsonNode::asString).filter(d -> !d.isBlank())));
        }
        return out;
    }

    /** The generated block, markers included. */
    static String render(Map<String, Property> properties) {
        StringBuilder s = new StringBuilder(BEGIN).append('\n').append(HEADER);
        for (Property p : properties.values()) {
            s.append(row(p)).append('\n');
        }
        return s.append(END).toString();
    }

    static String row(Property p) {
        return "| `" + p.name() + "` | " + cell(type(p.type())) + " | "
                + p.defaultValue().map(v -> v.isEmpty() ? "`\"\"`" : "`" + v.replace("|", "\\|") + "`").orElse("–")
                + " | " + cell(p.description().map(ConfigurationReference::prose).orElse("")) + " |";
    }

    /** The generated block of a document; empty when its markers are missing or out of order. */
    static Optional<String> block(String document) {
        int begin = document.indexOf(BEGIN);
        int end = document.indexOf(END);
        return begin < 0 || end < begin ? Optional.empty() : Optional.of(document.substring(begin, end + END.length()));
    }

    /** The document with its generated block replaced. */
    static String replaceBlock(String document, String block) {
        String old = block(document).orElseThrow(() -> new IllegalStateException(
                "docs/configuration.md lacks the markers of the generated table: " + BEGIN + " … " + END));
        return document.replace(old, block);
    }

    /** Rows of a block by property name. */
    static Map<String, String> rows(String block) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = ROW.matcher(block);
        while (m.find()) {
            out.put(m.group(1), m.group());
        }
        return out;
    }

    /** What differs between the documented block and the one the metadata renders, one line each. */
    static List<String> differences(String documented, Map<String, Property> properties) {
        Map<String, String> have = rows(documented);
        List<String> out = new ArrayList<>();
        properties.values().forEach(p -> {
            String want = row(p);
            String row = have.get(p.name());
            if (row == null) {
                out.add("missing from the table: " + p.name() + " (" + type(p.type()) + ")");
            } else if (!row.equals(want)) {
                out.add("stale row: " + p.name() + "\n      documented: " + row + "\n      metadata:   " + want);
            }
        });
        have.keySet().stream().filter(name -> !properties.containsKey(name))
                .forEach(name -> out.add("documented but no longer a property: " + name));
        if (out.isEmpty() && !documented.equals(render(properties))) {
            out.add("the table differs from the rendered one outside its rows (header, order or markers)");
        }
        return out;
    }

    static String document() throws IOException {
        return Files.readString(documentFile(), StandardCharsets.UTF_8);
    }

    static void write(String document) throws IOException {
        Files.writeString(documentFile(), document, StandardCharsets.UTF_8);
    }

    private static String value(JsonNode v) {
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(i -> items.add(i.asString()));
            return String.join(", ", items);
        }
        return v.asString();
    }

    /** {@code java.util.List<java.lang.String>} → {@code List<String>}; boxed primitives as their primitive. */
    static String type(String type) {
        String simple = PACKAGE.matcher(type).replaceAll("").replace(",", ", ");
        return switch (simple) {
            case "Boolean", "Integer", "Long", "Short", "Double", "Float" ->
                    simple.equals("Integer") ? "int" : simple.toLowerCase(java.util.Locale.ROOT);
            default -> simple;
        };
    }

    /** Javadoc as Markdown on one line. */
    static String prose(String description) {
        String s = description.replaceAll("\\s+", " ").trim();
        s = CODE.matcher(s).replaceAll(m -> Matcher.quoteReplacement("`" + m.group(1) + "`"));
        s = LINK.matcher(s).replaceAll(m -> Matcher.quoteReplacement(m.group(1)));
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
    }

    /** A table cell: pipes escaped, and angle brackets outside code spans, so Markdown shows them as text. */
    private static String cell(String text) {
        String[] parts = text.replace("|", "\\|").split("`", -1);
        for (int i = 0; i < parts.length; i += 2) {
            parts[i] = parts[i].replace("<", "&lt;").replace(">", "&gt;");
        }
        return String.join("`", parts);
    }
}
