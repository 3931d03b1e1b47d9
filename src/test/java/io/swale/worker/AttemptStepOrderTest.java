package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.operator.Cancellation;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import io.swale.task.DeadLetters;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An attempt's steps in the spec's order (§8.2): the params are rendered before the operator is looked up, so a
 * render error fails the instance with no dead letter even where the operator cannot run on this worker.
 */
class AttemptStepOrderTest {
    // no operator at all: whatever the input names cannot run here
    private final FakeStoreAttempts attempts = new FakeStoreAttempts();
    private final FakeTaskStore store = attempts.store;
    private final List<DeadLetters.DeadLetter> deadLetters = attempts.deadLetters;

    @AfterEach
    void close() {
        attempts.close();
    }

    @Test
    void aRenderErrorFailsTheInstanceWithoutADeadLetterBeforeTheOperatorIsLookedUp() {
        run(params("{{ upstream.extract.path }}"));

        assertThat(store.written).singleElement().satisfies(r -> {
            assertThat(r.status().wireName()).isEqualTo("failed");
            assertThat(r.error()).hasValueSatisfying(e -> assertThat(e).contains("upstream `extract`")
                    .doesNotContain("cannot run"));
        });
        assertThat(deadLetters).isEmpty();
    }

    @Test
    void withParamsThatRenderAnOperatorTheWorkerCannotRunIsAPermanentErrorNamingIt() {
        run(params("plain text"));

        assertThat(store.written).singleElement().satisfies(r -> {
            assertThat(r.status().wireName()).isEqualTo("failed");
            assertThat(r.error()).hasValueSatisfying(e -> assertThat(e).contains("operator `nosuch` cannot run"));
        });
        assertThat(deadLetters).singleElement().satisfies(l -> assertThat(l.lastError()).contains("nosuch"));
    }

    private static ObjectNode params(String path) {
        return JsonNodeFactory.instance.objectNode().put("path", path);
    }

    private void run(ObjectNode params) {
        TaskInput input = new TaskInput("nosuch", params, Map.of(), Map.of());
        TaskStore.Claim.Claimed claim = new TaskStore.Claim.Claimed(store.token, 1, 3, 0, Optional.of(input),
                Optional.empty(), 0, 0);
        attempts.runner.run(FakeStoreAttempts.ID, claim, "default", System.nanoTime(), new Cancellation(),
                Optional.empty(), () -> { });
    }
}
