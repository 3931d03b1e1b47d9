package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.operator.Cancellation;
import io.swale.operator.OperatorResult;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * An attempt stopped because the grant of its resource leases ended (docs/resources.md, Hold). Was: it settled
 * nothing, so the instance stayed running until its lease expired and its record named only the expiry.
 */
class GrantLostAttemptTest {
    private static final String KILLED = "program `load` was killed by signal 15 (or exited with code 143)";

    private final FakeStoreAttempts attempts = new FakeStoreAttempts();
    private final FakeTaskStore store = attempts.store;

    @AfterEach
    void close() {
        attempts.close();
    }

    @Test
    void theStoppedAttemptSettlesAtOnceAsARetryWithAnErrorNamingTheGrant() {
        run(1, new OperatorResult.PermanentError(KILLED));

        assertThat(store.parks).isEqualTo(1);
        assertThat(store.state).isEqualTo("waiting");
        assertThat(store.lastParkError).contains("grant of its resource leases").doesNotContain("signal");
        assertThat(store.written).isEmpty();
        assertThat(attempts.deadLetters).isEmpty();
    }

    @Test
    void onItsLastAttemptTheInstanceFailsNamingTheGrant() {
        run(3, new OperatorResult.PermanentError(KILLED));

        assertThat(store.written).singleElement().satisfies(r -> {
            assertThat(r.status().wireName()).isEqualTo("failed");
            assertThat(r.error()).hasValueSatisfying(e -> assertThat(e).contains("grant of its resource leases"));
        });
    }

    @Test
    void aSuccessTheProgramReturnedAsTheGrantEndedIsKept() {
        run(1, new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode().put("rows", 3)));

        assertThat(store.written).singleElement().satisfies(r -> assertThat(r.status().wireName()).isEqualTo("succeeded"));
        assertThat(store.parks).isZero();
    }

    @Test
    void aNextStepTheOperatorReturnedAsTheGrantEndedIsKept() {
        run(1, new OperatorResult.Continue(JsonNodeFactory.instance.objectNode().put("deadline_ms", 5),
                java.time.Duration.ofSeconds(30)));

        assertThat(store.parks).isEqualTo(1);
        assertThat(store.lastParkError).doesNotContain("grant");
        assertThat(store.written).isEmpty();
    }

    private void run(long attempt, OperatorResult returned) {
        TaskInput input = new TaskInput("shell", JsonNodeFactory.instance.objectNode().put("command", "./load.sh"),
                Map.of(), Map.of());
        TaskStore.Claim.Claimed claim = new TaskStore.Claim.Claimed(store.token, attempt, 3, 0, Optional.of(input),
                Optional.empty(), 0, 0);
        Cancellation cancellation = new Cancellation();
        cancellation.cancel(CancelReason.GRANT_LOST);
        attempts.runner.run(FakeStoreAttempts.ID, claim, "default", System.nanoTime(), cancellation,
                Optional.of(returned), () -> { });
    }
}
