package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Graph;
import io.swale.graph.MapSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The mapping keys of a node (docs/dynamic-graphs.md §1–3) in TOML and YAML, and every fault at once. */
class MappedDefinitionTest {
    private static final String HEAD = """
            [graph]
            name = "g"
            [[node]]
            name = "list"
            operator = "noop"
            """;

    private static Graph toml(String nodes) {
        return TestOperators.loader().load(HEAD + nodes, DefinitionFormat.TOML).graph();
    }

    private static List<String> faults(String nodes) {
        InvalidDefinitionException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidDefinitionException.class,
                () -> TestOperators.loader().load(HEAD + nodes, DefinitionFormat.TOML));
        return e.faults().stream().map(Fault::line).toList();
    }

    @Test
    void aMappedNodeReadsItsSourceAndLimitsWithDefaults() {
        Graph g = toml("""
                [[node]]
                name = "each"
                after = ["list"]
                operator = "noop"
                map = "{{ upstream.list.files }}"
                [node.params]
                f = "{{ item }} at {{ map.index }}"
                """);
        MapSpec spec = g.node("each").orElseThrow().map().orElseThrow();
        assertThat(spec.upstream()).isEqualTo("list");
        assertThat(spec.path()).containsExactly("files");
        assertThat(spec.maxMap()).isEqualTo(1024);
        assertThat(spec.maxParallel()).isEqualTo(1024);
        assertThat(g.node("list").orElseThrow().isMapped()).isFalse();
    }

    @Test
    void theIssuesSpellingOfTheSourceMeansTheSameAndLimitsAreRead() {
        MapSpec spec = toml("""
                [[node]]
                name = "each"
                after = ["list"]
                operator = "noop"
                map = " {{ nodes.list.output.a.0 }} "
                max_map = 10
                max_parallel = 3
                """).node("each").orElseThrow().map().orElseThrow();
        assertThat(spec.upstream()).isEqualTo("list");
        assertThat(spec.path()).containsExactly("a", "0");
        assertThat(spec.maxMap()).isEqualTo(10);
        assertThat(spec.maxParallel()).isEqualTo(3);
    }

    @Test
    void yamlLoadsTheSameMappedNode() {
        Graph fromYaml = TestOperators.loader().load("""
                graph: {name: g}
                node:
                  - name: list
                    operator: noop
                  - name: each
                    after: [list]
                    operator: noop
                    map: "{{ upstream.list.files }}"
                    max_parallel: 4
                """, DefinitionFormat.YAML).graph();
        Graph fromToml = toml("""
                [[node]]
                name = "each"
                after = ["list"]
                operator = "noop"
                map = "{{ upstream.list.files }}"
                max_parallel = 4
                """);
        assertThat(fromYaml.nodes()).isEqualTo(fromToml.nodes());
    }

    @Test
    void everyMappingFaultIsReportedAtOnceNamingItsNode() {
        List<String> lines = faults("""
                [[node]]
                name = "around"
                after = ["list"]
                operator = "noop"
                map = "files: {{ upstream.list.files }}"
                [[node]]
                name = "other"
                after = ["list"]
                operator = "noop"
                map = "{{ partition }}"
                max_map = 0
                [[node]]
                name = "stranger"
                operator = "noop"
                map = "{{ upstream.list }}"
                max_map = 8
                max_parallel = 9
                [[node]]
                name = "plain"
                operator = "noop"
                max_parallel = 2
                [node.params]
                at = "{{ map.index }}"
                """);
        assertThat(lines).containsExactly(
                "InvalidMap: node `around`: `map` is \"files: {{ upstream.list.files }}\"; expected exactly one reference"
                        + " `{{ upstream.NODE[.path] }}` (or `{{ nodes.NODE.output[.path] }}`) to an upstream's output"
                        + " holding a JSON array",
                "InvalidMap: node `other`: `map` is \"{{ partition }}\"; expected exactly one reference"
                        + " `{{ upstream.NODE[.path] }}` (or `{{ nodes.NODE.output[.path] }}`) to an upstream's output"
                        + " holding a JSON array",
                "InvalidMapLimit: node `other`: `max_map` is 0; it must be from 1 to 65536",
                "InvalidMap: node `stranger`: `map` refers to `list`, which is not an upstream of the node (add it to"
                        + " `after`)",
                "InvalidMapLimit: node `stranger`: `max_parallel` is 9; it must be from 1 to the node's max_map (8)",
                "InvalidMapLimit: node `plain`: `max_parallel` is set without `map`; it would do nothing",
                "ItemOutsideMap: node `plain`: parameter `at`: `item` and `map.index` are set only in a mapped node"
                        + " (one with `map`)");
    }

    @Test
    void anAssetNodeMappingOverANodeItDoesNotConsumeIsToldToConsumeItsAsset() {
        assertThat(faults("""
                [[node]]
                name = "files"
                operator = "noop"
                produces = "files_set"
                [[node]]
                name = "each"
                operator = "noop"
                produces = "each_set"
                map = "{{ upstream.files }}"
                [[node]]
                name = "other"
                operator = "noop"
                produces = "other_set"
                consumes = ["files_set"]
                map = "{{ upstream.list }}"
                """)).containsExactly(
                "InvalidMap: node `each`: `map` refers to `files`, which is not an upstream of the node (add"
                        + " `files_set`, the asset it produces, to `consumes`)",
                "InvalidMap: node `other`: `map` refers to `list`, which is not an upstream of the node (an asset"
                        + " node's upstreams are the producers of what it consumes, and `list` produces no asset)");
    }

    @Test
    void aMapOfTheWrongTypeIsAParseErrorNamingTheNode() {
        assertThatThrownBy(() -> toml("""
                [[node]]
                name = "each"
                after = ["list"]
                operator = "noop"
                map = 3
                """)).isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("`node` #2 (`each`): `map` must be a string").hasMessageContaining("the integer 3");
        assertThatThrownBy(() -> toml("""
                [[node]]
                name = "each"
                after = ["list"]
                operator = "noop"
                map = "{{ upstream.list }}"
                max_parallel = 2.5
                """)).isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("`node` #2 (`each`): `max_parallel` must be an integer, found the number 2.5");
    }
}
