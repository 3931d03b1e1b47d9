package io.swale.operator;

import static io.swale.operator.TestAttempts.attempt;
import static org.assertj.core.api.Assertions.assertThat;

import io.swale.template.ParamsTemplates;
import io.swale.template.RenderContext;
import io.swale.template.UpstreamStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** An upstream output templated into a shell command with {@code | sh} is data: none of it runs. */
class ShellQuotingTest {
    private final ShellOperator operator = new ShellOperator();

    @TempDir
    Path tmp;

    private String payload() {
        return "$(touch " + tmp.resolve("dollar") + ") `touch " + tmp.resolve("backtick") + "` '; touch "
                + tmp.resolve("quote") + "; echo ' \\ \" \n end";
    }

    private OperatorResult runTemplated(String command) {
        return runTemplated(command, payload());
    }

    private OperatorResult runTemplated(String command, String payload) {
        ObjectNode params = TestAttempts.JSON.createObjectNode();
        params.put("command", command);
        ObjectNode output = TestAttempts.JSON.createObjectNode();
        output.put("name", payload);
        RenderContext ctx = new RenderContext("g", "b", "20260915", "g-20260915-b-r0", Map.of("a", output),
                Map.of("a", new UpstreamStatus("succeeded", Optional.empty())), name -> Optional.empty());
        JsonNode rendered = ParamsTemplates.render(params, ctx);
        return operator.execute(attempt(rendered).build());
    }

    @Test
    void aQuotedUpstreamOutputIsOneWordAndNeverRuns() throws Exception {
        Path out = tmp.resolve("out");
        OperatorResult result = runTemplated("v={{ upstream.a.name | sh }}; printf '%s' \"$v\" > '" + out
                + "'; printf '{\"ok\": true}'");
        assertThat(result).isInstanceOf(OperatorResult.Succeeded.class);
        assertThat(Files.readString(out)).isEqualTo(payload());
        assertThat(tmp.resolve("dollar")).doesNotExist();
        assertThat(tmp.resolve("backtick")).doesNotExist();
        assertThat(tmp.resolve("quote")).doesNotExist();
    }

    @Test
    void withoutTheFilterTheSameOutputRunsAsCode() {
        // why the filter exists (and why validate warns): templates are not escaped
        runTemplated("echo {{ upstream.a.name }} >/dev/null; printf '{}'", "$(touch " + tmp.resolve("dollar") + ")");
        assertThat(tmp.resolve("dollar")).exists();
    }
}
