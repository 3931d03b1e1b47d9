package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.operator.AttemptContext;
import io.swale.operator.Operator;
import io.swale.operator.OperatorRegistry;
import io.swale.operator.OperatorResult;
import io.swale.store.AttemptRecord;
import io.swale.store.PendingInstance;
import io.swale.store.TaskInput;
import io.swale.store.redis.RedisTaskStore;
import io.swale.task.TaskIdentity;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Issue 18, scope 3: the shutdown hand-over of a pool worker, on a real redis-server, with the stopping of each
 * attempt's program held by the test so the interleaving is chosen, not hoped for. Only Kafka is a recording
 * fake (the dispatches the worker would send).
 */
class HandOverRedisIT {
    private RedisWorkers redis;
    private RedisTaskStore tasks;
    private final List<String> dispatched = new CopyOnWriteArrayList<>();
    private final Gate gate = new Gate();

    @BeforeEach
    void start() throws IOException {
        redis = new RedisWorkers("h");
        tasks = redis.tasks;
    }

    @AfterEach
    void stop() throws IOException {
        gate.releaseAll();
        redis.close();
    }

    /**
     * What each node's program does once the hand-over stops it: {@code quick} ends at once (killed),
     * {@code slow} ends when the test lets it, {@code done} had just succeeded on its own.
     */
    static final class Gate implements Operator {
        final Set<String> started = ConcurrentHashMap.newKeySet();
        final CountDownLatch slowMayEnd = new CountDownLatch(1);

        @Override
        public String name() {
            return "gate";
        }

        @Override
        public void checkParams(JsonNode params) {}

        @Override
        public OperatorResult execute(AttemptContext context) {
            CountDownLatch stopped = new CountDownLatch(1);
            context.cancellation().onCancel(stopped::countDown);
            started.add(context.runId());
            try {
                stopped.await();
                if (context.runId().contains("-slow-")) {
                    slowMayEnd.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return context.runId().contains("-done-")
                    ? new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode())
                    : new OperatorResult.Failed("killed");
        }

        void releaseAll() {
            slowMayEnd.countDown();
        }
    }

    private PoolWorker worker(int slots) {
        return redis.worker("gpu", slots, tasks, new OperatorRegistry(List.of(gate)), (p, id) -> dispatched.add(id.node()));
    }

    private TaskIdentity submit(String graph, String node) {
        TaskIdentity id = new TaskIdentity(graph, Partition.of("p"), node, Optional.empty(), "h", 0);
        tasks.submit(id.runKey(), id.runId(), new PendingInstance(node, Optional.empty(), "h", 0, "gpu", 1),
                new TaskInput("gate", JsonNodeFactory.instance.objectNode(), Map.of(), Map.of()));
        return id;
    }

    /** Claims and starts the instances on {@code worker}, as its dispatch listener would. */
    private void runOn(PoolWorker worker, List<TaskIdentity> ids) throws InterruptedException {
        assertThat(worker.reserve(ids.size(), 0)).isEqualTo(ids.size());
        assertThat(worker.claimAndRun(ids, () -> { })).isTrue();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> gate.started.containsAll(ids.stream().map(TaskIdentity::runId).toList()));
    }

    private List<String> outcomes(TaskIdentity id) {
        return tasks.history(id.runKey(), id.runId()).stream().map(AttemptRecord::outcome).toList();
    }

    /**
     * Was: the drain gave every lease back only once the slowest program had stopped (up to 10 s), so an
     * attempt stopped at once sat unclaimable, its lease no longer extended, while another one died slowly.
     */
    @Test
    void aStoppedAttemptIsHandedOverWhileAnotherIsStillStopping() throws Exception {
        PoolWorker worker = worker(2);
        TaskIdentity quick = submit("handover_a", "quick");
        TaskIdentity slow = submit("handover_a", "slow");
        runOn(worker, List.of(quick, slow));

        worker.beginDrain();
        CompletableFuture<PoolWorker.Drained> drained = CompletableFuture.supplyAsync(() -> {
            try {
                return worker.drain(Duration.ZERO);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        // slow's program is still stopping (the test holds it), and the drain waits up to 10 s for it
        await().atMost(Duration.ofSeconds(5)).until(() -> dispatched.contains("quick"));
        assertThat(outcomes(quick)).containsExactly("released");
        assertThat(dispatched).doesNotContain("slow");
        assertThat(drained).isNotDone();

        gate.slowMayEnd.countDown();
        PoolWorker.Drained d = drained.get(30, TimeUnit.SECONDS);
        assertThat(dispatched).containsExactlyInAnyOrder("quick", "slow");
        assertThat(outcomes(slow)).containsExactly("released");
        assertThat(d.givenBack()).containsExactlyInAnyOrder(quick.runId(), slow.runId());
    }

    /**
     * Was: a program that ended with success as the grace ran out was thrown away and given back: the
     * instance ran a second time on another worker (WorkerProcessIT: "ran to its end once").
     */
    @Test
    void anAttemptThatSucceededAsItsHandOverBeganKeepsItsResult() throws Exception {
        PoolWorker worker = worker(2);
        TaskIdentity done = submit("handover_b", "done");
        TaskIdentity quick = submit("handover_b", "quick");
        runOn(worker, List.of(done, quick));

        worker.beginDrain();
        PoolWorker.Drained d = worker.drain(Duration.ZERO);

        assertThat(outcomes(done)).containsExactly("succeeded");
        assertThat(outcomes(quick)).containsExactly("released");
        assertThat(dispatched).containsExactly("quick");
        assertThat(d.givenBack()).containsExactly(quick.runId());
    }
}
