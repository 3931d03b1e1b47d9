package io.swale.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.swale.settings.ConfigurationReference.Property;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md documents every {@code swale.*} property the configuration metadata knows, and the
 * metadata knows every {@code swale.*} property the code reads. Runs with the unit tests, so in every
 * {@code ./mvnw verify}. With {@code -Dswale.docs.regenerate=true} it rewrites the table instead of failing.
 */
class ConfigurationReferenceTest {
    /** Properties read from the Environment by name rather than bound through a settings record. */
    private static final Pattern READ_BY_NAME = Pattern.compile(
            "(?:getProperty|containsProperty|getRequiredProperty)\\(\\s*\"(swale\\.[A-Za-z0-9.-]+)\"|\\$\\{(swale\\.[A-Za-z0-9.-]+)");

    @Test
    void theConfigurationTableDocumentsEveryPropertyOfTheMetadata() throws IOException {
        Map<String, Property> properties = ConfigurationReference.properties(ConfigurationReference.metadataFile());
        String document = ConfigurationReference.document();
        String rendered = ConfigurationReference.render(properties);
        if (Boolean.getBoolean("swale.docs.regenerate")) {
            ConfigurationReference.write(ConfigurationReference.replaceBlock(document, rendered));
            document = ConfigurationReference.document();
        }
        Optional<String> block = ConfigurationReference.block(document);
        if (block.isEmpty()) {
            fail("docs/configuration.md lacks the markers of its generated table (" + ConfigurationReference.END + ")");
        }
        List<String> differences = ConfigurationReference.differences(block.get(), properties);
        if (!differences.isEmpty()) {
            fail("docs/configuration.md does not match the configuration metadata ("
                    + ConfigurationReference.metadataFile() + "):\n  - " + String.join("\n  - ", differences)
                    + "\nDocument the property (a javadoc @param on its settings record's component, or an entry in "
                    + "src/main/resources/META-INF/additional-spring-configuration-metadata.json), then regenerate the "
                    + "table:\n  " + ConfigurationReference.REGENERATE);
        }
    }

    @Test
    void everyPropertyHasATypeAndADescription() throws IOException {
        Map<String, Property> properties = ConfigurationReference.properties(ConfigurationReference.metadataFile());
        assertThat(properties.values().stream().filter(p -> p.type().isBlank()).map(Property::name))
                .as("properties without a type").isEmpty();
        // a settings record in another file is a nested group only when marked so; else it is one opaque property
        assertThat(properties.values().stream().filter(p -> p.type().startsWith("io.swale.")).map(Property::name))
                .as("groups documented as one property: mark the record component @NestedConfigurationProperty").isEmpty();
        assertThat(properties.values().stream().filter(p -> p.description().isEmpty()).map(Property::name))
                .as("properties without a description: write a javadoc @param on the record component, or an entry in "
                        + "src/main/resources/META-INF/additional-spring-configuration-metadata.json").isEmpty();
    }

    /** The ones the docs used to miss, the groups bound from other packages, and what local mode reads by name. */
    @Test
    void theMetadataCoversTheSettingsOfEveryPackage() throws IOException {
        assertThat(ConfigurationReference.properties(ConfigurationReference.metadataFile())).containsKeys(
                "swale.retention", "swale.worker.shutdown-grace", "swale.worker.pools", "swale.scheduler.reap-interval",
                "swale.dashboard.poll-interval", "swale.s3.endpoint", "swale.s3.path-style", "swale.security.token",
                "swale.ops.lag-interval", "swale.pools", "swale.embedded", "swale.local-profile");
        assertThat(ConfigurationReference.properties(ConfigurationReference.metadataFile()).get("swale.worker.lease")
                .defaultValue()).contains("60s");
    }

    @Test
    void everyPropertyTheCodeReadsByNameIsInTheMetadata() throws IOException {
        Map<String, Property> properties = ConfigurationReference.properties(ConfigurationReference.metadataFile());
        Path sources = Path.of(System.getProperty("basedir", ".")).resolve("src/main/java");
        TreeMap<String, TreeSet<String>> read = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = READ_BY_NAME.matcher(Files.readString(f));
                while (m.find()) {
                    String name = m.group(1) != null ? m.group(1) : m.group(2);
                    read.computeIfAbsent(name, n -> new TreeSet<>()).add(sources.relativize(f).toString());
                }
            }
        }
        assertThat(read).as("the scan finds what local mode reads").containsKey("swale.embedded");
        read.keySet().removeAll(properties.keySet());
        assertThat(read).as("swale.* properties read by name but absent from the metadata: describe each in "
                + "src/main/resources/META-INF/additional-spring-configuration-metadata.json").isEmpty();
    }

    @Test
    void aPropertyWithoutARowIsNamedAndAStaleRowToo() {
        Property documented = new Property("swale.a", "java.time.Duration", Optional.of("5s"), Optional.of("How long."));
        Property added = new Property("swale.b", "java.lang.Integer", Optional.of("4"), Optional.of("How many."));
        String block = ConfigurationReference.render(new TreeMap<>(Map.of("swale.a", documented)));

        assertThat(ConfigurationReference.differences(block, Map.of("swale.a", documented))).isEmpty();
        assertThat(ConfigurationReference.differences(block, new TreeMap<>(Map.of("swale.a", documented, "swale.b", added))))
                .containsExactly("missing from the table: swale.b (int)");
        assertThat(ConfigurationReference.differences(block, Map.of()))
                .containsExactly("documented but no longer a property: swale.a");
        Property changed = new Property("swale.a", "java.time.Duration", Optional.of("10s"), Optional.of("How long."));
        assertThat(ConfigurationReference.differences(block, Map.of("swale.a", changed)))
                .singleElement().asString().startsWith("stale row: swale.a");
    }

    @Test
    void javadocBecomesMarkdown() {
        assertThat(ConfigurationReference.prose("Fraction (0 ≤ j &lt; 1) of\n     a {@code retry} delay"))
                .isEqualTo("Fraction (0 ≤ j < 1) of a `retry` delay");
        assertThat(ConfigurationReference.type("java.util.Map<java.lang.String,io.swale.settings.PoolSettings>"))
                .isEqualTo("Map<String, PoolSettings>");
        assertThat(ConfigurationReference.row(new Property("swale.x", "java.util.List<java.lang.String>",
                Optional.of(""), Optional.of("a <b> | c"))))
                .isEqualTo("| `swale.x` | List&lt;String&gt; | `\"\"` | a &lt;b&gt; \\| c |");
    }
}
