package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.operator.OperatorRegistry;
import io.swale.store.InstanceStatus;
import io.swale.store.PendingInstance;
import io.swale.store.TaskInput;
import io.swale.store.TaskInstance;
import io.swale.store.redis.RedisRunStore;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A poll that claims while the drain shuts the worker's slots down (its thread passed the draining check, then hung
 * in a call past the listener's stop): the claimed attempt cannot run here, so its claim is given back at once and
 * the instance dispatched again. Was: the slot refused it, the claim burned its lease and used up an attempt.
 */
class ClaimAfterDrainIT {
    @Test
    void anAttemptClaimedAfterTheDrainShutTheSlotsIsGivenBackAtOnce() throws Exception {
        try (RedisWorkers redis = new RedisWorkers("d")) {
            TaskIdentity id = new TaskIdentity("g", Partition.of("p"), "n", Optional.empty(), "h", 0);
            redis.tasks.submit(id.runKey(), id.runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", 1),
                    new TaskInput("noop", JsonNodeFactory.instance.objectNode(), Map.of(), Map.of()));
            List<TaskIdentity> dispatched = new CopyOnWriteArrayList<>();
            PoolWorker worker = redis.worker("default", 1, redis.tasks, OperatorRegistry.builtIn(),
                    (pool, d) -> dispatched.add(d));
            assertThat(worker.reserve(1, 0)).isEqualTo(1);

            boolean claimed = worker.claimAndRun(List.of(id), () -> {
                try {
                    worker.drain(Duration.ZERO);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });

            assertThat(claimed).isTrue();
            TaskInstance instance = new RedisRunStore(redis.pool, "d").instances(List.of(id.runKey())).get(id.runKey())
                    .stream().filter(i -> i.runId().equals(id.runId())).findFirst().orElseThrow();
            assertThat(instance.status()).isEqualTo(InstanceStatus.PENDING);
            assertThat(dispatched).containsExactly(id);
        }
    }
}
