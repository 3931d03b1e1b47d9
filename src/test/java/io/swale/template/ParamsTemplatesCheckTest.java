package io.swale.template;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.template.TemplateProblem.Kind;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ParamsTemplatesCheckTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    @Test
    void validParamsHaveNoProblems() {
        JsonNode params = json("""
                {"command": "echo {{ partition }} {{ upstream.a.n }}", "timeout": 30, "flag": true, "none": null}
                """);
        assertThat(ParamsTemplates.check(params, Set.of("a"))).isEmpty();
    }

    @Test
    void pathsJoinKeysAndIndexes() {
        JsonNode params = json("""
                {"nested": {"list": ["ok", "{{ date }}"]}}
                """);
        assertThat(ParamsTemplates.check(params, Set.of()))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.kind()).isEqualTo(Kind.INVALID_TEMPLATE);
                    assertThat(p.path()).isEqualTo("nested.list.1");
                    assertThat(p.message()).contains("`date`");
                });
    }

    @Test
    void keysAreVisitedInLexicalOrderAndArraysByIndex() {
        JsonNode params = json("""
                {"zeta": "{{ z }}", "alpha": ["{{ a0 }}", {"b": "{{ b }}", "a": "{{ a }}"}], "mid": "{{"}
                """);
        assertThat(ParamsTemplates.check(params, Set.of()))
                .extracting(TemplateProblem::path)
                .containsExactly("alpha.0", "alpha.1.a", "alpha.1.b", "mid", "zeta");
    }

    @Test
    void unknownUpstreamOncePerDistinctNodePerString() {
        JsonNode params = json("""
                {"a": "{{ upstream.x.k }} {{ upstream.y }} {{ upstream.x.j }} {{ upstream.ok }}",
                 "b": "{{ upstream.x }}"}
                """);
        assertThat(ParamsTemplates.check(params, Set.of("ok")))
                .extracting(TemplateProblem::kind, TemplateProblem::path)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(Kind.UNKNOWN_UPSTREAM, "a"),
                        org.assertj.core.groups.Tuple.tuple(Kind.UNKNOWN_UPSTREAM, "a"),
                        org.assertj.core.groups.Tuple.tuple(Kind.UNKNOWN_UPSTREAM, "b"));
        assertThat(ParamsTemplates.check(params, Set.of("ok")))
                .extracting(TemplateProblem::message)
                .satisfiesExactly(
                        m -> assertThat(m).contains("`x`"),
                        m -> assertThat(m).contains("`y`"),
                        m -> assertThat(m).contains("`x`"));
    }

    @Test
    void anInvalidStringReportsOnlyItsSyntaxError() {
        JsonNode params = json("""
                {"a": "{{ upstream.x }} {{ nope }}"}
                """);
        assertThat(ParamsTemplates.check(params, Set.of()))
                .extracting(TemplateProblem::kind)
                .containsExactly(Kind.INVALID_TEMPLATE);
    }

    @Test
    void unclosedOpeningNamesTheByteOffset() {
        assertThat(ParamsTemplates.check(json("{\"url\": \"http://h/{{ partition\"}"), Set.of()))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("byte offset 9"));
    }

    @Test
    void keysAreNotTemplates() {
        assertThat(ParamsTemplates.check(json("{\"{{ nope\": 1}"), Set.of())).isEmpty();
    }
}
