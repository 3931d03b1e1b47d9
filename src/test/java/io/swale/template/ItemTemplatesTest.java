package io.swale.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code item}, {@code item.path} and {@code map.index} in the params of a mapped node's items. */
class ItemTemplatesTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    private static RenderContext context(Optional<RenderContext.MapItem> item) {
        return new RenderContext("g", "each", "p", "g-p-each[3]-r0", Map.of(), Map.of(), name -> Optional.empty(), item);
    }

    private static String render(String template, Optional<RenderContext.MapItem> item) {
        return ParamsTemplates.render(json("{\"v\": " + JSON.writeValueAsString(template) + "}"), context(item))
                .get("v").asString();
    }

    @Test
    void rendersTheItemItsPathAndItsIndex() {
        Optional<RenderContext.MapItem> item = Optional.of(new RenderContext.MapItem(3,
                json("{\"name\": \"b.csv\", \"rows\": [7, 8]}")));
        assertThat(render("{{ item.name }} #{{ map.index }}", item)).isEqualTo("b.csv #3");
        assertThat(render("{{ item.rows.1 }}", item)).isEqualTo("8");
        assertThat(render("{{ item }}", item)).isEqualTo("{\"name\":\"b.csv\",\"rows\":[7,8]}");
        assertThat(render("{{ item.name | sh }}", Optional.of(new RenderContext.MapItem(0, json("{\"name\": \"it's\"}")))))
                .isEqualTo("'it'\\''s'");
    }

    @Test
    void aMissingPathOrNoItemFailsTheRenderNamingIt() {
        Optional<RenderContext.MapItem> item = Optional.of(new RenderContext.MapItem(0, json("\"a\"")));
        assertThatThrownBy(() -> render("{{ item.x }}", item)).isInstanceOf(RenderException.class)
                .hasMessageContaining("path `x` of the item is missing");
        assertThatThrownBy(() -> render("{{ map.index }}", Optional.empty())).isInstanceOf(RenderException.class)
                .hasMessageContaining("only in the items of a mapped node");
    }

    @Test
    void itemReferencesAreProblemsOnlyOutsideAMappedNode() {
        JsonNode params = json("{\"a\": \"{{ item.k }}\", \"b\": [\"{{ map.index }}\"]}");
        assertThat(ParamsTemplates.check(params, Set.of(), true)).isEmpty();
        assertThat(ParamsTemplates.check(params, Set.of(), false)).extracting(TemplateProblem::path)
                .containsExactly("a", "b.0");
        assertThat(ParamsTemplates.check(json("{\"a\": \"{{ item. }}\"}"), Set.of(), true))
                .extracting(TemplateProblem::kind).containsExactly(TemplateProblem.Kind.INVALID_TEMPLATE);
    }
}
