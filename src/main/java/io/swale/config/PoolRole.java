package io.swale.config;

import io.swale.kafka.ListenerContainers;
import io.swale.kafka.PermanentFailure;
import io.swale.kafka.PoolTopics;
import io.swale.kafka.SwaleTopics;
import io.swale.pool.AttemptRunner;
import io.swale.pool.PoolWorker;
import io.swale.scheduler.SwaleException;
import io.swale.scheduler.TaskIdentity;
import io.swale.store.TaskStore;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.listener.BatchAcknowledgingMessageListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.stereotype.Component;

/** The pool role: one worker and one dispatch listener per pool this replica serves. */
@Component
public class PoolRole implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(PoolRole.class);
    /** How long a handed-back batch stays away at least; the paused listener keeps it away until a slot frees. */
    private static final java.time.Duration NACK_SLEEP = java.time.Duration.ofMillis(50);

    private record Served(PoolWorker worker, ConcurrentMessageListenerContainer<String, byte[]> container) {}

    private final SwaleProperties props;
    private final ConfiguredPools pools;
    private final ListenerContainers containers;
    private final SwaleTopics topics;
    private final PoolTopics poolTopics;
    private final TaskStore tasks;
    private final AttemptRunner runner;
    private final Map<String, Served> served = new ConcurrentHashMap<>();
    private volatile boolean running;

    public PoolRole(SwaleProperties props, ConfiguredPools pools, ListenerContainers containers, SwaleTopics topics,
            PoolTopics poolTopics, TaskStore tasks, AttemptRunner runner) {
        this.props = props;
        this.pools = pools;
        this.containers = containers;
        this.topics = topics;
        this.poolTopics = poolTopics;
        this.tasks = tasks;
        this.runner = runner;
    }

    @Override
    public void start() {
        if (!props.hasRole("pool")) {
            return;
        }
        running = true;
        pools.pools().forEach(this::serve);
        pools.onCreated(this::serve);
    }

    /** Running attempts per pool on this replica. */
    public Map<String, Integer> running() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        served.forEach((pool, s) -> out.put(pool, s.worker().running()));
        return out;
    }

    private synchronized void serve(String pool, int slots) {
        if (!running || served.containsKey(pool)) {
            return;
        }
        poolTopics.ensure(pool);
        PoolWorker worker = new PoolWorker(pool, slots, tasks, runner, props.getWorker().getLease().toMillis());
        long slotWaitMs = props.getWorker().getSlotWait().toMillis();
        // A polled batch: claim and hand off in order while slots free up, for at most slotWait in all; what is
        // left (slots still full) is handed back with nack, and comes again once the listener resumes.
        BatchAcknowledgingMessageListener<String, byte[]> listener = (records, ack) -> {
            long deadline = System.nanoTime() + slotWaitMs * 1_000_000L;
            for (int i = 0; i < records.size(); i++) {
                ConsumerRecord<String, byte[]> record = records.get(i);
                TaskIdentity id;
                try {
                    id = TaskIdentity.fromHeaders(name -> header(record.headers().lastHeader(name)));
                } catch (SwaleException e) {
                    log.warn("malformed dispatch pool={} offset={} error={}", pool, record.offset(), e.getMessage());
                    throw new BatchListenerFailedException(e.getMessage(), new PermanentFailure(e.getMessage(), e),
                            record);
                }
                boolean taken;
                try {
                    taken = worker.offer(id, (deadline - System.nanoTime()) / 1_000_000L);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    taken = false;
                } catch (RuntimeException e) {
                    throw new BatchListenerFailedException(String.valueOf(e.getMessage()), e, record);
                }
                if (!taken) {
                    ack.nack(i, NACK_SLEEP);
                    return;
                }
            }
            ack.acknowledge();
        };
        var container = containers.dispatchListener(topics.pool(pool), "swale-pool-" + pool,
                props.getWorker().getDispatchBatch(), listener);
        worker.attach(new PoolWorker.Flow() {
            @Override
            public void pause() {
                container.pause();
            }

            @Override
            public void resume() {
                if (container.isPauseRequested()) {
                    container.resume();
                }
            }
        });
        container.start();
        served.put(pool, new Served(worker, container));
        log.info("serving pool={} slots={}", pool, slots);
    }

    private static Optional<String> header(Header h) {
        return h == null || h.value() == null ? Optional.empty() : Optional.of(new String(h.value(), StandardCharsets.UTF_8));
    }

    @Override
    public void stop() {
        served.values().forEach(s -> {
            s.container().stop();
            s.worker().close();
        });
        served.clear();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 300;
    }
}
