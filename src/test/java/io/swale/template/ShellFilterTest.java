package io.swale.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The {@code | sh} filter: parsed, checked and rendered as one POSIX single-quoted word. */
class ShellFilterTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void parsesAroundAnyReference() {
        Template t = Template.parse("cp {{ upstream.a.path | sh }} {{partition|sh}} {{ run.summary | sh }}");
        assertThat(t.references()).containsExactly(
                new Reference.ShellQuoted(new Reference.Upstream("a", List.of("path"))),
                new Reference.ShellQuoted(new Reference.PartitionKey()),
                new Reference.ShellQuoted(new Reference.RunSummary()));
        assertThat(t.upstreamNodes()).containsExactly("a");
    }

    @Test
    void anUnknownOrRepeatedFilterIsATemplateFault() {
        assertThatThrownBy(() -> Template.parse("{{ upstream.a | upper }}"))
                .isInstanceOf(TemplateSyntaxException.class).hasMessageContaining("unknown filter `upper`");
        assertThatThrownBy(() -> Template.parse("{{ upstream.a | sh | sh }}"))
                .isInstanceOf(TemplateSyntaxException.class).hasMessageContaining("unknown filter");
        assertThatThrownBy(() -> Template.parse("{{ | sh }}")).isInstanceOf(TemplateSyntaxException.class);
        assertThat(ParamsTemplates.check(JSON.readTree("{\"command\": \"echo {{ upstream.a | quote }}\"}"),
                Set.of("a"))).singleElement().satisfies(p -> {
                    assertThat(p.kind()).isEqualTo(TemplateProblem.Kind.INVALID_TEMPLATE);
                    assertThat(p.path()).isEqualTo("command");
                });
        assertThat(ParamsTemplates.check(JSON.readTree("{\"command\": \"echo {{ upstream.b | sh }}\"}"),
                Set.of("a"))).singleElement()
                .satisfies(p -> assertThat(p.kind()).isEqualTo(TemplateProblem.Kind.UNKNOWN_UPSTREAM));
    }

    @Test
    void quotesEveryValueAsOneSingleQuotedWord() {
        assertThat(Reference.ShellQuoted.quote("")).isEqualTo("''");
        assertThat(Reference.ShellQuoted.quote("a b")).isEqualTo("'a b'");
        assertThat(Reference.ShellQuoted.quote("it's $(x) `y`")).isEqualTo("'it'\\''s $(x) `y`'");
        RenderContext ctx = new RenderContext("g", "n", "20260915", "r", Map.of("a",
                JSON.readTree("{\"s\": \"O'Neil\", \"n\": 3, \"o\": {\"k\": \"v\"}}")), Map.of(), x -> Optional.empty());
        assertThat(ParamsTemplates.render(JSON.readTree(
                "{\"c\": \"{{ upstream.a.s | sh }} {{ upstream.a.n | sh }} {{ upstream.a.o | sh }}\"}"), ctx)
                .get("c").asString()).isEqualTo("'O'\\''Neil' '3' '{\"k\":\"v\"}'");
    }
}
