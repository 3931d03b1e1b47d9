package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Property-based: any text, in particular a valid definition with a few mutations (keys deleted, duplicated,
 * renamed or nested, values made huge, random bytes, cut short), either loads or is refused with the
 * documented exceptions — never another exception, never a StackOverflowError, within 2 s a case.
 *
 * <p>{@code -Djqwik.tries.default=N} scales it (1000 a property by default). The generator nests at most a few
 * levels and writes no YAML anchors or aliases: deep nesting and alias amplification are the parser limits'
 * own tests.
 */
class DefinitionFuzzTest {
    private static final Duration PER_CASE = Duration.ofSeconds(2);
    private static final DefinitionLoader LOADER = TestOperators.loader();

    private static final String YAML_SEED = """
            graph:
              name: fuzz_yaml
              schedule: "0 3 * * *"
              catchup: 2d
              partition: daily
            node:
              - name: a
                produces: x
                operator: shell
                retries: 1
                params:
                  command: "printf '{}' {{ partition }}"
                  env: {K: "v"}
                  timeout: 30s
              - name: b
                consumes: [x]
                produces: y
                operator: noop
                params:
                  list: [1, "{{ upstream.a.k | sh }}"]
              - name: c
                after: [b]
                trigger_rule: all_done
                operator: noop
            """;

    private enum Mutation { DELETE_LINE, DUPLICATE_LINE, RENAME_KEY, NEST, HUGE_VALUE, RANDOM_BYTES, TRUNCATE, SWAP_LINES }

    private record Step(Mutation mutation, int at, int other, String word, byte[] bytes) {}

    @Property
    void mutatedTomlLoadsOrIsRefused(@ForAll("tomlSeeds") String seed, @ForAll("steps") List<Step> steps) {
        loadsOrIsRefused(mutate(seed, steps, false), DefinitionFormat.TOML);
    }

    @Property
    void mutatedYamlLoadsOrIsRefused(@ForAll("yamlSeeds") String seed, @ForAll("steps") List<Step> steps) {
        loadsOrIsRefused(mutate(seed, steps, true), DefinitionFormat.YAML);
    }

    @Property
    void randomBytesAreRefused(@ForAll("noise") byte[] bytes) {
        loadsOrIsRefused(bytes, DefinitionFormat.TOML);
        loadsOrIsRefused(bytes, DefinitionFormat.YAML);
    }

    private static void loadsOrIsRefused(byte[] bytes, DefinitionFormat format) {
        Throwable thrown = assertTimeoutPreemptively(PER_CASE, () -> {
            try {
                LOADER.load(bytes, format);
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        if (thrown != null) {
            assertThat(thrown).as("%s of %d bytes", format, bytes.length)
                    .isInstanceOfAny(DefinitionParseException.class, InvalidDefinitionException.class);
        }
    }

    @Provide
    Arbitrary<String> tomlSeeds() {
        List<String> seeds = new ArrayList<>();
        for (String name : List.of("local.toml", "local_subprocess.toml", "orders_daily.toml")) {
            seeds.add(new String(CompatDefinitionsTest.resource(name), StandardCharsets.UTF_8));
        }
        try (Stream<Path> files = Files.list(Path.of("examples"))) {
            for (Path p : files.filter(p -> p.toString().endsWith(".toml")).sorted().toList()) {
                seeds.add(Files.readString(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Arbitraries.of(seeds);
    }

    @Provide
    Arbitrary<String> yamlSeeds() {
        return Arbitraries.just(YAML_SEED);
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<String> words = Arbitraries.oneOf(
                Arbitraries.of("name", "graph", "node", "params", "operator", "produces", "consumes", "after",
                        "retries", "pool", "trigger_rule", "schedule", "partition", "catchup", "command", "timeout"),
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12),
                Arbitraries.strings().ofMaxLength(8));
        Arbitrary<Step> step = Combinators.combine(Arbitraries.of(Mutation.class), Arbitraries.integers().between(0, 10_000),
                Arbitraries.integers().between(0, 10_000), words, Arbitraries.bytes().array(byte[].class).ofMaxSize(16))
                .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(4);
    }

    @Provide
    Arbitrary<byte[]> noise() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(2048);
    }

    /** Applies the steps to the seed's lines; at most a few levels of nesting are added. */
    static byte[] mutate(String seed, List<Step> steps, boolean yaml) {
        List<String> lines = new ArrayList<>(Arrays.asList(seed.split("\n", -1)));
        byte[] tail = new byte[0];
        for (Step s : steps) {
            int i = s.at() % lines.size();
            String line = lines.get(i);
            switch (s.mutation()) {
                case DELETE_LINE -> {
                    if (lines.size() > 1) {
                        lines.remove(i);
                    }
                }
                case DUPLICATE_LINE -> lines.add(i, line);
                case SWAP_LINES -> {
                    int j = s.other() % lines.size();
                    lines.set(i, lines.get(j));
                    lines.set(j, line);
                }
                case RENAME_KEY -> lines.set(i, renameKey(line, s.word(), yaml));
                case NEST -> lines.set(i, nest(line, s.word(), s.other() % 4, yaml));
                case HUGE_VALUE -> lines.set(i, hugeValue(line, s.other(), yaml));
                case RANDOM_BYTES -> tail = s.bytes();
                case TRUNCATE -> lines = new ArrayList<>(lines.subList(0, Math.max(1, i)));
            }
        }
        byte[] text = String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
        if (tail.length == 0) {
            return text;
        }
        // the bytes go somewhere inside the text, not only at the end
        int at = Math.floorMod(Arrays.hashCode(tail), text.length + 1);
        byte[] out = new byte[text.length + tail.length];
        System.arraycopy(text, 0, out, 0, at);
        System.arraycopy(tail, 0, out, at, tail.length);
        System.arraycopy(text, at, out, at + tail.length, text.length - at);
        return out;
    }

    private static String renameKey(String line, String word, boolean yaml) {
        int sep = line.indexOf(yaml ? ':' : '=');
        if (sep <= 0) {
            return line;
        }
        String indent = line.substring(0, line.length() - line.stripLeading().length());
        String dash = yaml && line.stripLeading().startsWith("- ") ? "- " : "";
        return indent + dash + word + line.substring(sep);
    }

    private static String nest(String line, String word, int depth, boolean yaml) {
        if (yaml) {
            // one more level of indentation under a new key, `depth` times
            StringBuilder out = new StringBuilder();
            String indent = line.substring(0, line.length() - line.stripLeading().length());
            for (int d = 0; d <= depth; d++) {
                out.append(indent).append("  ".repeat(d)).append(word.isBlank() ? "k" : word).append(d).append(":\n");
            }
            return out + indent + "  ".repeat(depth + 1) + line.stripLeading();
        }
        String path = String.join(".", java.util.Collections.nCopies(depth + 1, word.isBlank() ? "k" : word));
        return (line.startsWith("[[") ? "[[" + path + "]]" : "[" + path + "]") + "\n" + line;
    }

    private static String hugeValue(String line, int size, boolean yaml) {
        int sep = line.indexOf(yaml ? ':' : '=');
        if (sep <= 0) {
            return line;
        }
        return line.substring(0, sep + 1) + " \"" + "v".repeat(10 * size) + "\"";
    }
}
