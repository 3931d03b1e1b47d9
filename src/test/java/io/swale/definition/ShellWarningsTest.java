package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** validate warns about upstream output or run.summary templated unquoted into a shell command. */
class ShellWarningsTest {
    private static final String GRAPH = """
            [graph]
            name = "g"
            [[node]]
            name = "a"
            produces = "x"
            operator = "shell"
            [node.params]
            command = "printf '{}' # {{ partition }} {{ run.id }}"
            [[node]]
            name = "b"
            produces = "y"
            consumes = ["x"]
            operator = "shell"
            [node.params]
            command = "%s"
            """;

    private static java.util.List<String> warnings(String command) {
        return ShellWarnings.of(TestOperators.loader().load(GRAPH.formatted(command), DefinitionFormat.TOML).graph());
    }

    @Test
    void unquotedUpstreamOutputAndRunSummaryAreWarnedAbout() {
        assertThat(warnings("echo {{ upstream.a.name }} {{ run.summary }}")).satisfiesExactly(
                w -> assertThat(w).contains("node `b`", "upstream.a.name", "| sh"),
                w -> assertThat(w).contains("node `b`", "run.summary"));
    }

    @Test
    void quotedReferencesAndOtherFormsAreNot() {
        assertThat(warnings("echo {{ upstream.a.name | sh }} {{ run.summary|sh }} {{ partition }} $SWALE_INPUTS"))
                .isEmpty();
    }

    @Test
    void theExamplesQuoteWhatTheyTemplateIntoShell() throws Exception {
        for (Path file : Files.list(Path.of("examples")).filter(p -> p.toString().endsWith(".toml")
                || p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).toList()) {
            var d = TestOperators.loader().load(Files.readAllBytes(file), DefinitionFormat.fromFileName(file.toString()));
            assertThat(ShellWarnings.of(d.graph())).as(file.toString()).isEmpty();
        }
    }
}
