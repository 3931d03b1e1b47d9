package io.swale.worker;

import io.swale.kafka.ListenerFailure;
import io.swale.operator.OperatorRegistry;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisTaskStore;
import io.swale.task.Dispatcher;
import io.swale.task.Terminations;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.embedded.RedisServer;

/**
 * A redis-server of a test's own and pool workers on it, wired by hand as the pool role does, with a 60 s lease.
 * Events and dead letters go nowhere; a worker's dispatches go to the dispatcher the test gives.
 */
final class RedisWorkers implements AutoCloseable {
    static final Duration LEASE = Duration.ofSeconds(60);

    final int port;
    final UnifiedJedis pool;
    final RedisTaskStore tasks;
    final RecordingMetrics metrics = new RecordingMetrics();
    private final RedisServer server;
    private final ScheduledExecutorService ticker = Executors.newScheduledThreadPool(1);

    RedisWorkers(String prefix) throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        server = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
        server.start();
        pool = new JedisPooled("127.0.0.1", port);
        tasks = new RedisTaskStore(pool, prefix);
    }

    /** Worker {@code w1} of {@code poolName} on {@code store}, running {@code operators}. */
    PoolWorker worker(String poolName, int slots, TaskStore store, OperatorRegistry operators, Dispatcher dispatcher) {
        return worker(poolName, slots, store, operators, dispatcher, LeaseGate.NONE);
    }

    /** As above, taking the leases of each dispatch's node through {@code gate} before its claim. */
    PoolWorker worker(String poolName, int slots, TaskStore store, OperatorRegistry operators, Dispatcher dispatcher,
            LeaseGate gate) {
        Settlement settlement = new Settlement(store, new Terminations(store, (id, status) -> { }, letter -> { },
                Clock.systemUTC(), metrics), Backoff.DEFAULT, metrics, ListenerFailure::isOutage);
        AttemptRunner runner = new AttemptRunner(operators, new LeaseKeeper(store, ticker,
                new LeaseKeeper.Timing(LEASE, Duration.ofSeconds(15), Duration.ofSeconds(1)), metrics), settlement,
                Map.of(), metrics);
        return new PoolWorker(poolName, slots, store, runner, dispatcher, new PoolWorker.Settings("w1", LEASE.toMillis()),
                gate);
    }

    @Override
    public void close() throws IOException {
        ticker.shutdownNow();
        pool.close();
        server.stop();
    }
}
