package io.swale.roles;

import io.swale.config.ConfiguredPools;
import io.swale.kafka.DispatchListener;
import io.swale.kafka.ListenerContainers;
import io.swale.kafka.PoolTopics;
import io.swale.kafka.SwaleTopics;
import io.swale.settings.SwaleProperties;
import io.swale.store.TaskStore;
import io.swale.task.Dispatcher;
import io.swale.worker.AttemptRunner;
import io.swale.worker.PoolWorker;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/** The pool role: one worker and one dispatch listener per pool this replica serves. */
@Component
public class PoolRole implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(PoolRole.class);

    private record Served(PoolWorker worker, DispatchListener listener) {}

    private final SwaleProperties props;
    private final ConfiguredPools pools;
    private final ListenerContainers containers;
    private final SwaleTopics topics;
    private final PoolTopics poolTopics;
    private final TaskStore tasks;
    private final AttemptRunner runner;
    private final Dispatcher dispatcher;
    private final io.swale.worker.LeaseGate gate;
    private final PoolWorker.Settings settings;
    private final Map<String, Served> served = new ConcurrentHashMap<>();
    private volatile boolean running;

    public PoolRole(SwaleProperties props, ConfiguredPools pools, ListenerContainers containers, SwaleTopics topics,
            PoolTopics poolTopics, TaskStore tasks, AttemptRunner runner, Dispatcher dispatcher,
            io.swale.worker.LeaseGate gate) {
        this.props = props;
        this.pools = pools;
        this.containers = containers;
        this.topics = topics;
        this.poolTopics = poolTopics;
        this.tasks = tasks;
        this.runner = runner;
        this.dispatcher = dispatcher;
        this.gate = gate;
        this.settings = new PoolWorker.Settings(workerId(props.worker().id()),
                props.worker().lease().toMillis());
    }

    /** The configured id, else host:pid:random (random so several contexts in one JVM differ). */
    static String workerId(String configured) {
        if (!configured.isBlank()) {
            return configured;
        }
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "localhost";
        }
        return host + ":" + ProcessHandle.current().pid() + ":"
                + Integer.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    }

    public String workerId() {
        return settings.workerId();
    }

    @Override
    public void start() {
        if (!props.hasRole("pool")) {
            return;
        }
        running = true;
        // told first: a pool created while the known ones start (an attempt's growth) is served too
        pools.onCreated(this::serve);
        pools.pools().forEach(this::serve);
    }

    /** Running attempts per pool on this replica. */
    public Map<String, Integer> running() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        served.forEach((pool, s) -> out.put(pool, s.worker().running()));
        return out;
    }

    private void serve(String pool, int slots) {
        // looked at before the monitor: a pool created while the role stops does not wait out its drain
        if (running) {
            serveNow(pool, slots);
        }
    }

    private synchronized void serveNow(String pool, int slots) {
        if (!running || served.containsKey(pool) || !props.worker().serves(pool)) {
            return;
        }
        poolTopics.ensure(pool);
        PoolWorker worker = new PoolWorker(pool, slots, tasks, runner, dispatcher, settings, gate);
        long slotWaitMs = props.worker().slotWait().toMillis();
        var listener = new DispatchListener(containers, topics.pool(pool), topics.poolGroup(pool),
                props.worker().dispatchBatch(), worker, slotWaitMs);
        listener.start();
        served.put(pool, new Served(worker, listener));
        log.info("serving pool={} slots={}", pool, slots);
    }

    /**
     * Shutdown that cannot be starved: every worker stops claiming at once, the listeners stop, in-flight
     * attempts get {@code swale.worker.shutdown-grace} to finish, and the leases of the rest are given back.
     */
    @Override
    public synchronized void stop() {
        running = false;
        long t0 = System.nanoTime();
        served.values().forEach(s -> s.worker().beginDrain());
        served.values().forEach(s -> s.listener().stop());
        long deadline = t0 + props.worker().shutdownGrace().toNanos();
        for (Served s : served.values()) {
            try {
                s.worker().drain(java.time.Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                s.worker().close();
            }
        }
        served.clear();
        log.info("pool role stopped worker={} ms={}", settings.workerId(), (System.nanoTime() - t0) / 1_000_000);
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
