package io.swale.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TemplateTest {

    @Test
    void textWithoutReferencesIsOneLiteral() {
        Template t = Template.parse("plain text");
        assertThat(t.parts()).containsExactly(new Part.Literal("plain text"));
        assertThat(t.isLiteral()).isTrue();
    }

    @Test
    void emptyTextHasNoParts() {
        assertThat(Template.parse("").parts()).isEmpty();
    }

    @Test
    void parsesEveryReferenceForm() {
        Template t = Template.parse("{{partition}}{{ run.id }}{{  run.summary\t}}{{ env.HOME_2 }}{{ upstream.a }}"
                + "{{ upstream.b.rows.0.key }}");
        assertThat(t.parts()).containsExactly(
                new Reference.PartitionKey(),
                new Reference.RunId(),
                new Reference.RunSummary(),
                new Reference.Env("HOME_2"),
                new Reference.Upstream("a", List.of()),
                new Reference.Upstream("b", List.of("rows", "0", "key")));
    }

    @Test
    void keepsLiteralsAroundReferences() {
        Template t = Template.parse("s3://landing/{{ partition }}.parquet");
        assertThat(t.parts()).containsExactly(
                new Part.Literal("s3://landing/"), new Reference.PartitionKey(), new Part.Literal(".parquet"));
    }

    @Test
    void aLoneClosingBraceIsLiteral() {
        Template t = Template.parse("a }} b {{ partition }} }}");
        assertThat(t.parts()).containsExactly(
                new Part.Literal("a }} b "), new Reference.PartitionKey(), new Part.Literal(" }}"));
    }

    @Test
    void singleBracesAreLiteral() {
        assertThat(Template.parse("{\"n\": 1}").parts()).containsExactly(new Part.Literal("{\"n\": 1}"));
    }

    @Test
    void upstreamNodesAreDistinctInOrderOfFirstUse() {
        Template t = Template.parse("{{ upstream.b.x }} {{ upstream.a }} {{ upstream.b.y }}");
        assertThat(t.upstreamNodes()).containsExactly("b", "a");
        assertThat(t.references()).hasSize(3);
    }

    @Test
    void unclosedOpeningNamesItsByteOffset() {
        assertThatThrownBy(() -> Template.parse("ab {{ partition"))
                .isInstanceOf(TemplateSyntaxException.class)
                .hasMessageContaining("unclosed `{{`")
                .hasMessageContaining("byte offset 3");
    }

    @Test
    void byteOffsetCountsUtf8Bytes() {
        // é is two bytes in UTF-8, one char in Java
        assertThatThrownBy(() -> Template.parse("é{{ partition }} {{ run.id"))
                .hasMessageContaining("byte offset 18");
    }

    @Test
    void unclosedAfterAValidReferenceIsReported() {
        assertThatThrownBy(() -> Template.parse("{{ partition }}{{"))
                .hasMessageContaining("byte offset 15");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "date", "run", "run.name", "run.id.x", "upstream", "upstream.", "upstream.a..b", "upstream.a.",
        "env", "env.", "env.A.B", "env.1A", "env.A-B", "partition.x", "Partition"
    })
    void invalidInnerTextIsNamed(String inner) {
        assertThatThrownBy(() -> Template.parse("x {{ " + inner + " }} y"))
                .isInstanceOf(TemplateSyntaxException.class)
                .hasMessageContaining("`" + inner + "`");
    }

    @Test
    void emptyReferenceIsInvalid() {
        assertThatThrownBy(() -> Template.parse("{{   }}"))
                .isInstanceOf(TemplateSyntaxException.class)
                .hasMessageContaining("empty");
    }

    @Test
    void nestedOpeningMakesTheInnerTextInvalid() {
        assertThatThrownBy(() -> Template.parse("{{ a {{ partition }}"))
                .isInstanceOf(TemplateSyntaxException.class)
                .hasMessageContaining("`a {{ partition`");
    }
}
