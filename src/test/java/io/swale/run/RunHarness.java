package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.definition.CronCheck;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.DefinitionLoader;
import io.swale.graph.Partition;
import io.swale.kafka.ListenerFailure;
import io.swale.operator.OperatorRegistry;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisDefinitionStore;
import io.swale.store.redis.RedisRunStore;
import io.swale.store.redis.RedisTaskStore;
import io.swale.task.DeadLetters;
import io.swale.task.Dispatcher;
import io.swale.task.EventPublisher;
import io.swale.task.LeaseReaper;
import io.swale.task.RepairFailures;
import io.swale.task.SwaleMetrics;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.embedded.RedisServer;

/**
 * The scheduler's run logic wired by hand on a real redis-server, with recording fakes for Kafka only. The
 * stores can be wrapped (a decorator that pauses or interleaves at one step) to reproduce a race in order.
 */
final class RunHarness implements AutoCloseable {
    private static final AtomicLong SEQ = new AtomicLong();

    /** One dispatch the harness would have sent to Kafka. */
    record Dispatch(String pool, TaskIdentity identity) {}

    /** One task-terminated event the harness's cancels would have sent to Kafka. */
    record Event(TaskIdentity identity, NodeStatus status) {}

    /**
     * When set, every harness runs on this client (e.g. a Redis Cluster's) under its own key prefix instead of
     * starting a redis-server of its own: set by a test class around its tests, which run one at a time.
     */
    static volatile Optional<UnifiedJedis> shared = Optional.empty();

    final Optional<RedisServer> server;
    final UnifiedJedis pool;
    final String prefix = "h" + SEQ.incrementAndGet();
    final RedisDefinitionStore definitionStore;
    final DefinitionCatalog catalog;
    final RunStore runs;
    final TaskStore tasks;
    final List<Dispatch> dispatches = new CopyOnWriteArrayList<>();
    final List<Event> events = new CopyOnWriteArrayList<>();
    final List<DeadLetters.DeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    final Map<String, AtomicInteger> repairFailures = new ConcurrentHashMap<>();
    final SwaleMetrics metrics = new SwaleMetrics() {
        @Override
        public void repairFailed(String pass) {
            repairFailures.computeIfAbsent(pass, p -> new AtomicInteger()).incrementAndGet();
        }
    };
    final Dispatcher dispatcher = (p, identity) -> dispatches.add(new Dispatch(p, identity));
    /** Pools this installation does not configure (every other pool is configured). */
    final Set<String> unconfiguredPools = java.util.concurrent.ConcurrentHashMap.newKeySet();
    final PoolCatalog pools = new PoolCatalog() {
        @Override
        public boolean isConfigured(String pool) {
            return !unconfiguredPools.contains(pool);
        }

        @Override
        public Map<String, Integer> pools() {
            return Map.of("default", 4);
        }

        @Override
        public void ensure(Set<String> pools) {}
    };
    final Clock clock = Clock.systemUTC();
    final Submission submission;
    final GraphRuns graphRuns;
    final RunCancellation cancellation;
    final RunReruns reruns;
    final RepairFailures failures;
    final LeaseReaper reaper;
    /** While set, a dead-letter copy is not sent (the Kafka send fails). */
    final java.util.concurrent.atomic.AtomicBoolean deadLettersDown = new java.util.concurrent.atomic.AtomicBoolean();
    /** While set, the broker refuses every dead-letter copy for itself (too large, not authorised). */
    final java.util.concurrent.atomic.AtomicBoolean deadLettersRefused = new java.util.concurrent.atomic.AtomicBoolean();
    final DeadLetters deadLetterSink = letter -> {
        if (deadLettersRefused.get()) {
            throw new DeadLetters.Undeliverable("the record is too large", new IllegalArgumentException());
        }
        if (deadLettersDown.get()) {
            throw new IllegalStateException("the dead-letter topic is not reachable");
        }
        deadLetters.add(letter);
    };
    final Terminations terminations;

    RunHarness() throws IOException {
        this(UnaryOperator.identity(), UnaryOperator.identity());
    }

    /** With the stores wrapped by {@code runsWrap} and {@code tasksWrap} (decorators of a test). */
    RunHarness(UnaryOperator<RunStore> runsWrap, UnaryOperator<TaskStore> tasksWrap) throws IOException {
        if (shared.isPresent()) {
            server = Optional.empty();
            pool = shared.get();
        } else {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            RedisServer started = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
            started.start();
            server = Optional.of(started);
            pool = new JedisPooled("127.0.0.1", port);
        }
        definitionStore = new RedisDefinitionStore(pool, prefix);
        catalog = new DefinitionCatalog(definitionStore,
                new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS));
        runs = runsWrap.apply(new RedisRunStore(pool, prefix));
        tasks = tasksWrap.apply(new RedisTaskStore(pool, prefix));
        submission = new Submission(tasks, dispatcher, pools, metrics, clock);
        graphRuns = new GraphRuns(catalog, definitionStore, runs, tasks, submission, clock, metrics);
        cancellation = new RunCancellation(catalog, runs, tasks, clock, metrics,
                (identity, status) -> events.add(new Event(identity, status)));
        reruns = new RunReruns(catalog, runs, tasks, submission, clock, graphRuns, cancellation);
        failures = new RepairFailures(runs, metrics, clock, ListenerFailure::isOutage);
        EventPublisher reaped = (identity, status) -> { };
        terminations = new Terminations(tasks, reaped, deadLetterSink, clock, metrics);
        reaper = new LeaseReaper(runs, tasks, terminations, dispatcher, failures);
    }

    /** A lease reaper of its own, reading {@code batch} expired leases a shard besides those it passes over. */
    LeaseReaper reaper(int batch) {
        return new LeaseReaper(runs, tasks, terminations, dispatcher, failures, batch);
    }

    Reconciler reconciler(long staleDispatchMs) {
        return new Reconciler(runs, tasks, graphRuns, cancellation, reaper, dispatcher, staleDispatchMs, metrics, failures,
                terminations);
    }

    /** Publishes a TOML definition and answers its hash. */
    String publish(String toml) {
        return catalog.publish(toml.getBytes(StandardCharsets.UTF_8), DefinitionFormat.TOML).hash();
    }

    /** One noop node `a` with two retries (three attempts), on the default pool; answers its hash. */
    String oneNode(String graph) {
        return publish("""
                [graph]
                name = "%s"
                [[node]]
                name = "a"
                operator = "noop"
                retries = 2
                """.formatted(graph));
    }

    /** A chain a → b of noop nodes on the default pool, under a fresh graph name. */
    String chain(String graph) {
        return chain(graph, "all_succeeded");
    }

    /** As above, with b's trigger rule. */
    String chain(String graph, String triggerRule) {
        return publish("""
                [graph]
                name = "%s"
                [[node]]
                name = "a"
                operator = "noop"
                [[node]]
                name = "b"
                operator = "noop"
                after = ["a"]
                trigger_rule = "%s"
                """.formatted(graph, triggerRule));
    }

    /** A chain a → b, started, whose a has failed at r0: the run is ready to settle failed. */
    RunKey runWithFailedRoot(String graph) {
        String hash = chain(graph);
        RunKey key = key(graph);
        assertThat(graphRuns.startRun(hash, key.partition()).started()).isTrue();
        finish(key, "a", 0, NodeStatus.FAILED, hash);
        return key;
    }

    static String graphName(String stem) {
        return stem + SEQ.incrementAndGet();
    }

    /** Claims and ends the pending instance {@code node}-r{@code rerun} of the run with {@code status}. */
    void finish(RunKey key, String node, long rerun, NodeStatus status, String hash) {
        finish(key, node, rerun, status, hash, Optional.empty());
    }

    /** As above, with the record's output. */
    void finish(RunKey key, String node, long rerun, NodeStatus status, String hash,
            Optional<tools.jackson.databind.JsonNode> output) {
        String runId = key.runId(node, rerun);
        TaskStore.Claim claim = tasks.claim(key, runId, 60_000, "w");
        assertThat(claim).isInstanceOf(TaskStore.Claim.Claimed.class);
        long token = ((TaskStore.Claim.Claimed) claim).token();
        NodeRecord record = new NodeRecord(status, runId, hash, rerun, clock.millis(), output, false,
                status == NodeStatus.FAILED ? Optional.of("boom") : Optional.empty());
        assertThat(tasks.finish(key, new RecordField(node, Optional.empty()), token, record))
                .isEqualTo(TaskStore.Finish.OK);
    }

    /**
     * A decorator of {@code delegate} that runs {@code before} with the method name and arguments ahead of
     * every call: the hook of a test that makes another step happen at exactly that point.
     */
    static <T> T before(Class<T> type, T delegate, java.util.function.BiConsumer<String, Object[]> before) {
        return around(type, delegate, before, (method, args) -> { });
    }

    /**
     * A decorator of {@code delegate} that runs {@code after} with the method name and arguments once each call
     * returned: the hook of a test that loses a call's answer after it took effect (by throwing).
     */
    static <T> T after(Class<T> type, T delegate, java.util.function.BiConsumer<String, Object[]> after) {
        return around(type, delegate, (method, args) -> { }, after);
    }

    @SuppressWarnings("unchecked")
    private static <T> T around(Class<T> type, T delegate, java.util.function.BiConsumer<String, Object[]> before,
            java.util.function.BiConsumer<String, Object[]> after) {
        return (T) java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    Object[] shown = args == null ? new Object[0] : args;
                    before.accept(method.getName(), shown);
                    Object answer;
                    try {
                        answer = method.invoke(delegate, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                    after.accept(method.getName(), shown);
                    return answer;
                });
    }

    /** A harness whose stores count their calls by method name, into {@code runCalls} and {@code taskCalls}. */
    static RunHarness counting(Map<String, AtomicInteger> runCalls, Map<String, AtomicInteger> taskCalls)
            throws IOException {
        return new RunHarness(r -> before(RunStore.class, r,
                (method, args) -> runCalls.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet()),
                t -> before(TaskStore.class, t,
                        (method, args) -> taskCalls.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet()));
    }

    RunKey key(String graph) {
        return new RunKey(graph, Partition.of("p"));
    }

    @Override
    public void close() throws IOException {
        if (server.isPresent()) {
            pool.close();
            server.get().stop();
        }
    }
}
