package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.swale.definition.DefinitionLimits;
import io.swale.store.TaskInput;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A definition that publishes can run (issue 13, scope 4): params as deep as the deepest definition the limits
 * ever allow are stored as task input and read back whole, while params 600 deep, which a depth limit without a
 * ceiling let publish, could not be.
 */
class TaskInputDepthTest {
    /** Params {@code depth} tables deep, the params table itself being 1. */
    private static JsonNode params(int depth) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode at = root;
        for (int i = 1; i < depth; i++) {
            at = at.putObject("k");
        }
        at.put("leaf", "{{x}}");
        return root;
    }

    @Test
    void paramsAsDeepAsTheLimitsAllowAreStoredAndReadBack() {
        // the document is depth 1, [[node]] 2, the node 3, its params 4: no params are deeper than this
        TaskInput input = new TaskInput("noop", params(DefinitionLimits.MOST_DEPTH), Map.of(), Map.of());
        Optional<TaskInput> back = TaskInputCodec.decode(TaskInputCodec.encode(input));
        assertThat(back).hasValueSatisfying(i -> assertThat(i.params()).isEqualTo(input.params()));
    }

    @Test
    void paramsSixHundredDeepCouldNotBeStoredAndReadBack() {
        TaskInput input = new TaskInput("noop", params(600), Map.of(), Map.of());
        Throwable failed = catchThrowable(() -> TaskInputCodec.decode(TaskInputCodec.encode(input)).orElseThrow());
        assertThat(failed).as("why swale.limits.depth has a ceiling").isNotNull();
    }
}
