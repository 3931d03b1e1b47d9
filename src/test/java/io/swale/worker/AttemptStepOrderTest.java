package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.operator.Cancellation;
import io.swale.operator.OperatorRegistry;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import io.swale.task.DeadLetters;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An attempt's steps in the spec's order (§8.2): the params are rendered before the operator is looked up, so a
 * render error fails the instance with no dead letter even where the operator cannot run on this worker.
 */
class AttemptStepOrderTest {
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final TaskIdentity ID = new TaskIdentity("g", Partition.of("p"), "n", Optional.empty(), "d", 0);

    private final AtomicLong clock = new AtomicLong(0);
    private final FakeTaskStore store = new FakeTaskStore(clock, LEASE);
    private final RecordingMetrics metrics = new RecordingMetrics();
    private final List<DeadLetters.DeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final Settlement settlement = new Settlement(store, new Terminations(store, (id, status) -> { },
            deadLetters::add, Clock.systemUTC(), metrics), Backoff.DEFAULT, metrics, e -> false);
    // no operator at all: whatever the input names cannot run here
    private final AttemptRunner runner = new AttemptRunner(new OperatorRegistry(List.of()),
            new LeaseKeeper(store, ticker, new LeaseKeeper.Timing(LEASE, Duration.ofSeconds(15),
                    Duration.ofSeconds(1)), metrics), settlement, Map.of(), metrics);

    @AfterEach
    void stopTicker() {
        ticker.shutdownNow();
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
        runner.run(ID, claim, "default", System.nanoTime(), new Cancellation(), Optional.empty(), () -> { });
    }
}
