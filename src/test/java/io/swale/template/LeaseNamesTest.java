package io.swale.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/** Rendering a node's lease names for one instance (docs/resources.md). */
class LeaseNamesTest {
    private static RenderContext context() {
        var f = JsonNodeFactory.instance;
        return new RenderContext("g", "load", "2024-01-02", "g-2024-01-02-load-r0",
                Map.of("pick", f.objectNode().put("agent", "a7").put("bad", "has space")), Map.of(),
                name -> Optional.empty());
    }

    @Test
    void namesRenderPerInstanceOnceEach() {
        assertThat(LeaseNames.render(List.of("warehouse", "agent:{{ upstream.pick.agent }}", "day/{{ partition }}",
                "agent:a7"), context())).containsExactly("warehouse", "agent:a7", "day/2024-01-02");
    }

    @Test
    void aNameThatRendersBadOrNotAtAllNamesTheTemplate() {
        assertThatThrownBy(() -> LeaseNames.render(List.of("x:{{ upstream.pick.bad }}"), context()))
                .isInstanceOf(RenderException.class).hasMessageContaining("lease `x:{{ upstream.pick.bad }}`")
                .hasMessageContaining("`x:has space`");
        assertThatThrownBy(() -> LeaseNames.render(List.of("x:{{ upstream.pick.missing }}"), context()))
                .isInstanceOf(RenderException.class).hasMessageContaining("lease `x:{{ upstream.pick.missing }}`");
    }

    /**
     * An upstream's large output, or a reference repeated many times, renders no further than a name can be long, and
     * the error quotes the start of it with its length. Was: the whole text was built, and quoted whole in the
     * instance's error, record and history.
     */
    @Test
    void aLongRenderingStopsPastTheLongestNameAndIsQuotedCut() {
        var f = JsonNodeFactory.instance;
        RenderContext big = new RenderContext("g", "load", "2024-01-02", "g-2024-01-02-load-r0",
                Map.of("pick", f.objectNode().put("agent", "a".repeat(200_000))), Map.of(), name -> Optional.empty());
        assertThatThrownBy(() -> LeaseNames.render(List.of("agent:{{ upstream.pick.agent }}"), big))
                .isInstanceOf(RenderException.class).hasMessageContaining("lease `agent:{{ upstream.pick.agent }}`")
                .hasMessageContaining("`agent:" + "a".repeat(58) + "… (200006 characters)`")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
        String repeated = "x" + "{{ upstream.pick.agent }}".repeat(5_000);
        assertThatThrownBy(() -> LeaseNames.render(List.of(repeated), context()))
                .isInstanceOf(RenderException.class).hasMessageContaining("… (more than 128 characters)")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(400));
    }

    @Test
    void aTemplateWhoseFixedTextNoNameCanHoldIsRefusedAtPublish() {
        Set<String> ups = Set.of("pick");
        assertThat(LeaseNames.check(List.of("agent {{ partition }}"), ups)).singleElement().asString()
                .contains("lease `agent {{ partition }}`").contains("holds ` `");
        assertThat(LeaseNames.check(List.of("-{{ partition }}"), ups)).singleElement().asString()
                .contains("starts with `-`");
        assertThat(LeaseNames.check(List.of("day/{{ partition }}/\u00e9t\u00e9"), ups)).singleElement().asString()
                .contains("holds `\u00e9`");
        assertThat(LeaseNames.check(List.of("a".repeat(129) + "{{ partition }}"), ups)).singleElement().asString()
                .contains("fixed text alone is 129 characters");
        // a reference first may render to a letter; a fixed `-` after it is allowed
        assertThat(LeaseNames.check(List.of("{{ partition }}-x", "agent:{{ upstream.pick.agent }}/b_c.d"), ups))
                .isEmpty();
    }

    @Test
    void nameSyntax() {
        assertThat(LeaseNames.validName("agent:a7")).isTrue();
        assertThat(LeaseNames.validName("db.main/pool_2-b")).isTrue();
        assertThat(LeaseNames.validName("")).isFalse();
        assertThat(LeaseNames.validName(":x")).isFalse();
        assertThat(LeaseNames.validName("a b")).isFalse();
        assertThat(LeaseNames.validName("a".repeat(128))).isTrue();
        assertThat(LeaseNames.validName("a".repeat(129))).isFalse();
        assertThat(LeaseNames.nameProblem("a\nb")).get().asString().contains("invalid resource name");
    }

    /** Names the API's path could not reach (the server normalises or refuses them) are not names. */
    @Test
    void noSegmentIsEmptyDotOrDotDotAndNoSlashEndsAName() {
        for (String bad : List.of("db//main", "db/./main", "db/../main", "db/.", "db/..", "db/", "a/b//")) {
            assertThat(LeaseNames.validName(bad)).as(bad).isFalse();
        }
        for (String good : List.of("db/.main", "db/..x/y", "db./main", "a...b", "db/main.", "x/y/z")) {
            assertThat(LeaseNames.validName(good)).as(good).isTrue();
        }
        Set<String> ups = Set.of("pick");
        assertThat(LeaseNames.check(List.of("db//{{ partition }}"), ups)).singleElement().asString()
                .contains("holds `//`");
        assertThat(LeaseNames.check(List.of("{{ partition }}/.."), ups)).singleElement().asString()
                .contains("holds `/..`");
        assertThat(LeaseNames.check(List.of("db/main/"), ups)).singleElement().asString()
                .contains("invalid resource name");
        // a segment that a reference completes is judged when rendered
        assertThat(LeaseNames.check(List.of("day/{{ partition }}", "day/.{{ partition }}"), ups)).isEmpty();
        assertThatThrownBy(() -> LeaseNames.render(List.of("day/{{ upstream.pick.dots }}/x"),
                new RenderContext("g", "load", "2024-01-02", "g-2024-01-02-load-r0",
                        Map.of("pick", JsonNodeFactory.instance.objectNode().put("dots", "..")), Map.of(),
                        name -> Optional.empty())))
                .isInstanceOf(RenderException.class).hasMessageContaining("renders to `day/../x`");
    }
}
