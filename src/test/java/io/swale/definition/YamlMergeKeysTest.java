package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Graph;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** YAML merge keys: a mapping's own keys win over merged ones, earlier merged mappings over later ones. */
class YamlMergeKeysTest {
    private static final DefinitionLimits LIMITS = DefinitionLimits.DEFAULT;

    private static Optional<String> resolve(String text, DefinitionLimits limits) {
        return YamlMerges.resolve(text, YamlAliases.check(text, limits), limits);
    }

    private static JsonNode yaml(String text) {
        return DocumentParser.parse(text, DefinitionFormat.YAML);
    }

    @Test
    void aKeyOfItsOwnOverridesTheMergedOneWhereverItStands() {
        JsonNode after = yaml("""
                base: &base {pool: etl, retries: 2}
                node:
                  <<: *base
                  retries: 3
                """).get("node");
        JsonNode before = yaml("""
                base: &base {pool: etl, retries: 2}
                node:
                  retries: 3
                  <<: *base
                """).get("node");
        assertThat(after.toString()).isEqualTo("{\"pool\":\"etl\",\"retries\":3}");
        assertThat(before.get("retries").asInt()).isEqualTo(3);
        assertThat(before.get("pool").asString()).isEqualTo("etl");
        assertThat(before.size()).isEqualTo(2);
    }

    @Test
    void ofAMergedListTheEarlierMappingWins() {
        JsonNode n = yaml("""
                a: &a {pool: first, x: 1}
                b: &b {pool: second, y: 2}
                node: {<<: [*a, *b], y: 9}
                """).get("node");
        assertThat(n.get("pool").asString()).isEqualTo("first");
        assertThat(n.get("x").asInt()).isEqualTo(1);
        assertThat(n.get("y").asInt()).isEqualTo(9);
        assertThat(n.size()).isEqualTo(3);
    }

    @Test
    void aMergedMappingsOwnMergesComeWithIt() {
        JsonNode root = yaml("""
                base: &base {pool: etl, retries: 2, timeout: 10m}
                shell: &shell {<<: *base, operator: shell, retries: 5}
                node: {<<: *shell, name: a}
                """);
        assertThat(root.get("node")).isEqualTo(yaml(
                "{pool: etl, retries: 5, timeout: 10m, operator: shell, name: a}\n"));
        assertThat(root.get("base")).isEqualTo(yaml("{pool: etl, retries: 2, timeout: 10m}\n"));
    }

    @Test
    void scalarsKeepTheirTypesThroughAMerge() {
        JsonNode n = yaml("""
                base: &base {count: 12, ratio: 0.5, on: true, nothing: null, quoted: "12", text: 'a: b'}
                node: {<<: *base, extra: 7}
                """).get("node");
        assertThat(n.get("count").isInt()).isTrue();
        assertThat(n.get("ratio").isDouble()).isTrue();
        assertThat(n.get("on").isBoolean()).isTrue();
        assertThat(n.get("nothing").isNull()).isTrue();
        assertThat(n.get("quoted").isString()).isTrue();
        assertThat(n.get("text").asString()).isEqualTo("a: b");
        assertThat(n.get("extra").isInt()).isTrue();
    }

    @Test
    void aDuplicateOfItsOwnIsStillRefusedWithItsLine() {
        assertThatThrownBy(() -> yaml("""
                base: &base {pool: etl}
                node:
                  <<: *base
                  retries: 1
                  retries: 2
                """))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessage("malformed YAML: Duplicate Object property \"retries\" (line 5, column 3)");
        assertThatThrownBy(() -> yaml("""
                a: &a {x: 1}
                node: {<<: *a, <<: *a}
                """))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("Duplicate Object property \"<<\" (line 2");
    }

    @Test
    void onlyMappingsCanBeMerged() {
        assertThatThrownBy(() -> yaml("""
                a: &a [1, 2]
                node: {<<: *a}
                """))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("the merge key `<<` takes a mapping or a list of mappings (line 2, column 8)");
        assertThatThrownBy(() -> yaml("node: {<<: [{x: 1}, 3]}\n"))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("takes a mapping or a list of mappings");
    }

    @Test
    void aMappingCannotMergeItself() {
        assertThatThrownBy(() -> yaml("node: &n {x: 1, <<: *n}\n"))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("refers to a mapping that contains it");
    }

    @Test
    void aQuotedKeyIsTextNotAMerge() {
        JsonNode n = yaml("node: {\"<<\": {x: 1}, '<<x': 2, y: \"<<\"}\n").get("node");
        assertThat(n.get("<<").get("x").asInt()).isEqualTo(1);
        assertThat(n.get("<<x").asInt()).isEqualTo(2);
        assertThat(n.get("y").asString()).isEqualTo("<<");
        assertThat(n.size()).isEqualTo(3);
    }

    @Test
    void aDuplicateAnywhereInATextWithMergesIsReportedWithItsLineAsWritten() {
        assertThatThrownBy(() -> yaml("""
                base: &base {pool: etl}
                node:
                  <<: *base
                  params:
                    k: 1

                    k: 2
                """))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessage("malformed YAML: Duplicate Object property \"k\" (line 7, column 5)");
    }

    @Test
    void whatSnakeyamlCannotBuildIsLeftToJacksonsReading() {
        assertThat(resolve("a: {<<: {x: 1}}\n", LIMITS)).isPresent();
        assertThat(resolve("a: [\n<<", LIMITS)).isEmpty();
        assertThat(resolve("a: {<<: {x: 1}}\n---\nb: 2\n", LIMITS)).isEmpty();
        assertThat(resolve("a: &a {b: *a, <<: {x: 1}}\n", LIMITS)).isEmpty();
        assertThat(resolve("a: &a {b: *a}\n", LIMITS)).isEmpty();
        assertThatThrownBy(() -> yaml("a: {<<: {x: 1}}\n---\nb: 2\n"))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("malformed YAML");
    }

    @Test
    void aHeredocInACommandOrATooDeepTextIsLeftToJacksonsReading() {
        assertThat(resolve("node: {command: \"cat <<EOF\\nx\\nEOF\"}\n", LIMITS)).isEmpty();
        String deep = "[".repeat(LIMITS.maxDepth() + 2) + "{<<: {x: 1}}" + "]".repeat(LIMITS.maxDepth() + 2) + "\n";
        assertThat(resolve(deep, LIMITS)).isEmpty();
    }

    @Test
    void anEmptyValueReadsAsItDoesWithoutAMerge() {
        JsonNode without = yaml("node: {timeout: , list: [a, {k: }]}\n").get("node");
        JsonNode n = yaml("""
                base: &b
                  timeout:
                node: {<<: *b, list: [a, {k: }]}
                """).get("node");
        assertThat(n.get("timeout")).isEqualTo(without.get("timeout"));
        assertThat(n.get("list")).isEqualTo(without.get("list"));
        assertThat(yaml("block:\n  <<: {x: 1}\n  retries:\n").get("block").get("retries"))
                .isEqualTo(yaml("block:\n  retries:\n").get("block").get("retries"));
    }

    @Test
    void aSmallTextThatStandsForAHugeOneIsRefused() {
        // 47 aliases replaying 99,124 events, within the default limits; written out, 3.5 billion characters
        String text = "s: &s \"" + "x".repeat(50_000) + "\"\n"
                + "l1: &l1 [" + "*s, ".repeat(9) + "*s]\n"
                + "l2: &l2 [" + "*l1, ".repeat(9) + "*l1]\n"
                + "l3: &l3 [" + "*l2, ".repeat(9) + "*l2]\n"
                + "l4: &l4 [" + "*l3, ".repeat(9) + "*l3]\n"
                + "l5: [" + "*l4, ".repeat(6) + "*l4]\n"
                + "node: {<<: {x: 1}}\n";
        assertThatThrownBy(() -> yaml(text))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("YAML refused: with its aliases and merge keys written out, the text is longer"
                        + " than");
    }

    @Test
    void nodesSharingDefaultsLoadLikeTheirToml() {
        Graph fromYaml = TestOperators.loader().load("""
                graph: {name: shared}
                node:
                  - &a {name: a, operator: noop, pool: etl, retries: 2}
                  - {<<: *a, name: b, after: [a], retries: 4}
                """, DefinitionFormat.YAML).graph();
        Graph fromToml = TestOperators.loader().load("""
                [graph]
                name = "shared"

                [[node]]
                name = "a"
                operator = "noop"
                pool = "etl"
                retries = 2

                [[node]]
                name = "b"
                after = ["a"]
                operator = "noop"
                pool = "etl"
                retries = 4
                """, DefinitionFormat.TOML).graph();
        assertThat(fromYaml.nodes()).isEqualTo(fromToml.nodes());
        assertThat(fromYaml.upstreams("b")).isEqualTo(fromToml.upstreams("b"));
    }
}
