package io.swale.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;

class ParamsTemplatesRenderTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    private static RenderContext context() {
        return new RenderContext("g", "load", "20260915", "g-20260915-load-r0",
                Map.of(
                        "extract", json("{\"rows\": 3, \"key\": \"a/b\", \"list\": [10, {\"z\": 1, \"a\": [true]}]}"),
                        "text", json("\"plain\""),
                        "numbers", json("{\"ts\": 1758000000.25, \"small\": 0.0005, \"big\": 1e7, \"one\": 1.0,"
                                + " \"tiny\": 1e-7, \"huge\": 1e300, \"int\": 12, \"neg\": -2.5e-4, \"list\": [1.5e10, 0.001]}"),
                        "empty", NullNode.getInstance()),
                Map.of(
                        "extract", new UpstreamStatus("succeeded", Optional.empty()),
                        "broken", new UpstreamStatus("failed", Optional.of("exit 1"))),
                name -> name.equals("TOKEN") ? Optional.of("s3cret") : Optional.empty());
    }

    private static String renderString(String template) {
        JsonNode out = ParamsTemplates.render(json("{\"v\": " + JSON.writeValueAsString(template) + "}"), context());
        return out.get("v").asString();
    }

    /** As compact JSON (spec §8.7) with the digits a program wrote: Java alone would print 1.75800000025E9. */
    @Test
    void insertsDecimalsWithTheirDigitsNotInJavasExponentForm() {
        assertThat(renderString("{{ upstream.numbers.ts }}")).isEqualTo("1758000000.25");
        assertThat(renderString("{{ upstream.numbers.small }}")).isEqualTo("0.0005");
        assertThat(renderString("{{ upstream.numbers.neg }}")).isEqualTo("-0.00025");
        assertThat(renderString("{{ upstream.numbers.big }}")).isEqualTo("10000000.0");
        assertThat(renderString("{{ upstream.numbers.one }}")).isEqualTo("1.0");
        assertThat(renderString("{{ upstream.numbers.int }}")).isEqualTo("12");
        // far from 1, an exponent is shorter, and still JSON
        assertThat(renderString("{{ upstream.numbers.tiny }}")).isEqualTo("1.0E-7");
        assertThat(renderString("{{ upstream.numbers.huge }}")).isEqualTo("1.0E300");
        assertThat(renderString("{{ upstream.numbers.list | sh }}")).isEqualTo("'[15000000000.0,0.001]'");
        assertThat(renderString("{{ upstream.numbers }}")).isEqualTo("{\"big\":10000000.0,\"huge\":1.0E300,\"int\":12,"
                + "\"list\":[15000000000.0,0.001],\"neg\":-0.00025,\"one\":1.0,\"small\":0.0005,\"tiny\":1.0E-7,"
                + "\"ts\":1758000000.25}");
    }

    @Test
    void rendersPartitionAndRunId() {
        assertThat(renderString("{{ partition }}/{{run.id}}")).isEqualTo("20260915/g-20260915-load-r0");
    }

    @Test
    void rendersEnvironmentVariables() {
        assertThat(renderString("Bearer {{ env.TOKEN }}")).isEqualTo("Bearer s3cret");
    }

    @Test
    void rendersRunSummaryWithSortedKeysAndErrorOnlyWhenSet() {
        assertThat(renderString("{{ run.summary }}")).isEqualTo(
                "{\"graph\":\"g\",\"node\":\"load\",\"partition\":\"20260915\",\"upstreams\":{"
                        + "\"broken\":{\"error\":\"exit 1\",\"status\":\"failed\"},"
                        + "\"extract\":{\"status\":\"succeeded\"}}}");
    }

    @Test
    void rendersTheSpecRunSummaryExample() {
        RenderContext ctx = new RenderContext("g", "load", "20260915", "r",
                Map.of(), Map.of("extract", new UpstreamStatus("succeeded", Optional.empty())), n -> Optional.empty());
        JsonNode out = ParamsTemplates.render(json("{\"body\": \"{{ run.summary }}\"}"), ctx);
        assertThat(out.get("body").asString()).isEqualTo(
                "{\"graph\":\"g\",\"node\":\"load\",\"partition\":\"20260915\",\"upstreams\":{\"extract\":{\"status\":\"succeeded\"}}}");
    }

    @Test
    void insertsWholeOutputAsCompactJsonWithKeysSortedAtEveryDepth() {
        assertThat(renderString("{{ upstream.extract }}"))
                .isEqualTo("{\"key\":\"a/b\",\"list\":[10,{\"a\":[true],\"z\":1}],\"rows\":3}");
    }

    @Test
    void insertsAStringValueAsIs() {
        assertThat(renderString("k={{ upstream.extract.key }}")).isEqualTo("k=a/b");
        assertThat(renderString("{{ upstream.text }}")).isEqualTo("plain");
    }

    @Test
    void followsObjectKeysAndArrayIndexes() {
        assertThat(renderString("{{ upstream.extract.rows }}")).isEqualTo("3");
        assertThat(renderString("{{ upstream.extract.list.0 }}")).isEqualTo("10");
        assertThat(renderString("{{ upstream.extract.list.1 }}")).isEqualTo("{\"a\":[true],\"z\":1}");
        assertThat(renderString("{{ upstream.extract.list.1.a.0 }}")).isEqualTo("true");
    }

    @Test
    void aNullOutputRendersAsNull() {
        assertThat(renderString("{{ upstream.empty }}")).isEqualTo("null");
    }

    @Test
    void onlyStringsAreRenderedAndTypesAreKept() {
        JsonNode params = json("""
                {"n": 3, "f": 1.5, "b": false, "z": null,
                 "list": ["{{ partition }}", 7, {"deep": "{{ upstream.extract.rows }}"}],
                 "obj": {"x": "{{ run.id }}", "y": true}}
                """);
        JsonNode out = ParamsTemplates.render(params, context());
        assertThat(out).isEqualTo(json("""
                {"n": 3, "f": 1.5, "b": false, "z": null,
                 "list": ["20260915", 7, {"deep": "3"}],
                 "obj": {"x": "g-20260915-load-r0", "y": true}}
                """));
        assertThat(out.get("n").isIntegralNumber()).isTrue();
        assertThat(out.get("list").get(2).get("deep").isString()).isTrue();
    }

    @Test
    void doesNotChangeTheInput() {
        JsonNode params = json("{\"a\": \"{{ partition }}\"}");
        ParamsTemplates.render(params, context());
        assertThat(params.get("a").asString()).isEqualTo("{{ partition }}");
    }

    @Test
    void upstreamWithoutSucceededRecordIsAnError() {
        assertThatThrownBy(() -> renderString("{{ upstream.broken.x }}"))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("`broken`")
                .hasMessageContaining("no current succeeded record");
    }

    @Test
    void missingPathNamesPathAndUpstream() {
        assertThatThrownBy(() -> renderString("{{ upstream.extract.nope.deeper }}"))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("`nope.deeper`")
                .hasMessageContaining("`extract`");
    }

    @Test
    void pathIntoANonContainerNamesPathAndUpstream() {
        assertThatThrownBy(() -> renderString("{{ upstream.extract.rows.x }}"))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("`rows.x`")
                .hasMessageContaining("`extract`");
        assertThatThrownBy(() -> renderString("{{ upstream.empty.x }}"))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("`x`")
                .hasMessageContaining("`empty`");
    }

    @Test
    void arrayIndexOutOfRangeOrNotANumberIsMissing() {
        assertThatThrownBy(() -> renderString("{{ upstream.extract.list.2 }}"))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("`list.2`");
        assertThatThrownBy(() -> renderString("{{ upstream.extract.list.first }}"))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("`list.first`");
        assertThatThrownBy(() -> renderString("{{ upstream.extract.list.99999999999999999999 }}"))
                .isInstanceOf(RenderException.class);
    }

    @Test
    void unsetEnvironmentVariableIsNamed() {
        assertThatThrownBy(() -> renderString("{{ env.MISSING_VAR }}"))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("`MISSING_VAR`");
    }

    @Test
    void renderErrorsNameTheParameterPath() {
        JsonNode params = json("{\"headers\": {\"auth\": \"{{ env.MISSING_VAR }}\"}}");
        assertThatThrownBy(() -> ParamsTemplates.render(params, context()))
                .isInstanceOf(RenderException.class)
                .hasMessageContaining("`headers.auth`");
    }

    @Test
    void anInvalidTemplateFailsRendering() {
        assertThatThrownBy(() -> renderString("{{ date }}")).isInstanceOf(RenderException.class)
                .hasMessageContaining("`date`");
    }
}
