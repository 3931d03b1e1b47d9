package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import org.junit.jupiter.api.Test;

/** YAML carries the same keys as TOML and loads to the same graph. */
class YamlDefinitionTest {
    private static final String TOML = """
            [graph]
            name = "orders"
            schedule = "0 2 * * *"
            catchup = "7d"
            partition = "hourly"

            [[node]]
            name = "extract"
            produces = "raw"
            operator = "shell"
            pool = "etl"
            retries = 2
            [node.params]
            command = "echo {{ partition }}"
            env = { A = "1" }

            [[node]]
            name = "notify"
            after = ["extract"]
            trigger_rule = "one_failed"
            operator = "noop"
            [node.params]
            list = ["a", "{{ upstream.extract.k }}"]
            """;

    private static final String YAML = """
            graph:
              name: orders
              schedule: "0 2 * * *"
              catchup: 7d
              partition: hourly
            node:
              - name: extract
                produces: raw
                operator: shell
                pool: etl
                retries: 2
                params:
                  command: "echo {{ partition }}"
                  env: {A: "1"}
              - name: notify
                after: [extract]
                trigger_rule: one_failed
                operator: noop
                params:
                  list: [a, "{{ upstream.extract.k }}"]
            """;

    @Test
    void tomlAndYamlLoadToEqualGraphs() {
        Graph fromToml = TestOperators.loader().load(TOML, DefinitionFormat.TOML).graph();
        Graph fromYaml = TestOperators.loader().load(YAML, DefinitionFormat.YAML).graph();
        assertThat(fromYaml.name()).isEqualTo(fromToml.name());
        assertThat(fromYaml.schedule()).isEqualTo(fromToml.schedule()).contains("0 2 * * *");
        assertThat(fromYaml.catchup()).isEqualTo(fromToml.catchup()).contains(java.time.Duration.ofDays(7));
        assertThat(fromYaml.partitioning()).isEqualTo(fromToml.partitioning());
        assertThat(fromYaml.nodes()).isEqualTo(fromToml.nodes());
        for (Node n : fromToml.nodes()) {
            assertThat(fromYaml.upstreams(n.name())).isEqualTo(fromToml.upstreams(n.name()));
            assertThat(fromYaml.triggerRule(n.name())).isEqualTo(fromToml.triggerRule(n.name()));
        }
        assertThat(fromYaml.edgeCount()).isEqualTo(1);
    }

    @Test
    void nonStringScalarsInParamsKeepTheirTypes() {
        Node n = TestOperators.loader().load("""
                graph: {name: g}
                node:
                  - name: a
                    operator: noop
                    params:
                      count: 30
                      ratio: 1.5
                      verbose: true
                      nothing: null
                      text: "30"
                """, DefinitionFormat.YAML).graph().nodes().getFirst();
        assertThat(n.params().get("count").isIntegralNumber()).isTrue();
        assertThat(n.params().get("count").asInt()).isEqualTo(30);
        assertThat(n.params().get("ratio").isFloatingPointNumber()).isTrue();
        assertThat(n.params().get("verbose").isBoolean()).isTrue();
        assertThat(n.params().get("nothing").isNull()).isTrue();
        assertThat(n.params().get("text").isString()).isTrue();
    }

    @Test
    void aliasesAreResolved() {
        Node n = TestOperators.loader().load("""
                graph: {name: g}
                node:
                  - name: a
                    operator: noop
                    params:
                      base: &base {k: "v"}
                      copy: *base
                """, DefinitionFormat.YAML).graph().nodes().getFirst();
        assertThat(n.params().get("copy")).isEqualTo(n.params().get("base"));
    }

    @Test
    void yamlIsStrictToo() {
        assertThatThrownBy(() -> TestOperators.loader().load("graph: {name: g, extra: 1}\n", DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("`extra`");
        assertThatThrownBy(() -> TestOperators.loader().load("graph: {name: g}\nnode: {name: a}\n", DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("`node` must be an array");
        assertThatThrownBy(() -> TestOperators.loader().load("graph: {name: 12}\n", DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("`name` must be a string");
        assertThatThrownBy(() -> TestOperators.loader().load("graph: {name: g}\ngraph: {name: h}\n", DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("Duplicate");
        assertThatThrownBy(() -> TestOperators.loader().load("graph: [\n", DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("malformed YAML");
        assertThatThrownBy(() -> TestOperators.loader().load("- graph\n", DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("the top level must be a table");
    }

    @Test
    void yamlFaultsAreReportedLikeToml() {
        assertThatThrownBy(() -> TestOperators.loader().load("graph: {name: Bad}\n", DefinitionFormat.YAML))
                .isInstanceOf(InvalidDefinitionException.class)
                .satisfies(e -> assertThat(((InvalidDefinitionException) e).faults()).extracting(Fault::kind)
                        .containsExactly(FaultKind.INVALID_GRAPH_NAME, FaultKind.NO_NODES));
    }

    /** Was: only Jackson's "Expected a property name … got this instead: +MAP {}", which does not say what to do. */
    @Test
    void aValueThatStartsWithAnUnquotedTemplateIsToldToBeQuoted() {
        String yaml = "graph:\n  name: g\n# note: {{ not this }}\nnode:\n  - name: a\n    operator: shell\n    params:\n"
                + "      command: {{ partition }}\n";
        assertThatThrownBy(() -> TestOperators.loader().load(yaml, DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class)
                .hasMessageContaining("malformed YAML")
                .hasMessageContaining("line 8 starts a value with `{{`, which YAML reads as a mapping: quote the value");
        // quoted, it loads
        assertThat(TestOperators.loader().load(yaml.replace("{{ partition }}", "\"{{ partition }}\""), DefinitionFormat.YAML)
                .graph().nodes().getFirst().params().get("command").asString()).isEqualTo("{{ partition }}");
        // a malformed text without such a value gets no advice
        assertThatThrownBy(() -> TestOperators.loader().load("graph: [\n", DefinitionFormat.YAML))
                .isInstanceOf(DefinitionParseException.class).message().doesNotContain("quote");
    }
}
