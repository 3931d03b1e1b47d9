package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.swale.definition.CronCheck;
import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.DefinitionLoader;
import io.swale.graph.Partition;
import io.swale.operator.OperatorRegistry;
import io.swale.store.InstanceStatus;
import io.swale.store.PendingInstance;
import io.swale.store.ResourceStore;
import io.swale.store.TaskInput;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisResourceStore;
import io.swale.store.redis.RedisRunStore;
import io.swale.store.redis.RedisTaskStore;
import io.swale.task.LeaseWaiter;
import io.swale.task.TaskIdentity;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A claim that Redis committed but whose reply the worker never got (a read timeout, a reset connection): when the
 * poll comes back, the worker must run that attempt, not take its own claim for someone else's and leave the
 * attempt to burn until its lease expires. On a real redis-server, behind a proxy that loses the claim's reply
 * after Redis ran it.
 */
class LostClaimReplyIT {
    private RedisWorkers redis;

    @BeforeEach
    void start() throws IOException {
        redis = new RedisWorkers("l");
    }

    @AfterEach
    void stop() throws IOException {
        redis.close();
    }

    @Test
    void theAttemptOfAClaimWhoseReplyWasLostRunsWhenThePollComesBack() throws Exception {
        TaskIdentity id = new TaskIdentity("g", Partition.of("p"), "n", Optional.empty(), "h", 0);
        redis.tasks.submit(id.runKey(), id.runId(), new PendingInstance("n", Optional.empty(), "h", 0, "default", 1),
                new TaskInput("noop", JsonNodeFactory.instance.objectNode(), Map.of(), Map.of()));
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.port);
                UnifiedJedis viaProxy = new JedisPooled(new HostAndPort("127.0.0.1", proxy.port()),
                        DefaultJedisClientConfig.builder().timeoutMillis(400).build())) {
            RedisTaskStore store = new RedisTaskStore(viaProxy, "l");
            // the claim script is cached in Redis first, so the lost reply is the claim's, not a NOSCRIPT
            assertThat(store.claim(id.runKey(), "nobody", RedisWorkers.LEASE.toMillis(), "w1"))
                    .isEqualTo(new TaskStore.Claim.Refused("unknown"));
            PoolWorker worker = redis.worker("default", 1, store, OperatorRegistry.builtIn(), (p, i) -> { });

            assertThat(worker.reserve(1, 0)).isEqualTo(1);
            proxy.dropNextReply();
            assertThatThrownBy(() -> worker.claimAndRun(List.of(id), () -> { }))
                    .isInstanceOf(JedisConnectionException.class);
            assertThat(proxy.dropped()).isEqualTo(1);
            assertThat(instance(id).status()).isEqualTo(InstanceStatus.RUNNING);

            // the poll is handed over again, as the listener's error handler does
            assertThat(worker.reserve(1, 0)).isEqualTo(1);
            assertThat(worker.claimAndRun(List.of(id), () -> { })).isTrue();

            await().atMost(Duration.ofSeconds(20)).until(() -> instance(id).status() == InstanceStatus.SUCCEEDED);
            assertThat(instance(id).attempt()).isEqualTo(1);
        }
    }

    /**
     * The same with a lease: the grant taken for the claim in doubt is kept, so the dispatch that comes back is
     * granted again at once. Were it released, an instance asking meanwhile would take the resource, and the
     * claimed attempt, its dispatch waiting in line behind it, would burn its lease unrun.
     */
    @Test
    void theLeasesOfAClaimWhoseReplyWasLostStayWithItsAttempt() throws Exception {
        Definition definition = leased("operator = \"shell\"\nparams = { command = \"sleep 1\" }");
        TaskIdentity id = new TaskIdentity("leased", Partition.of("p"), "a", Optional.empty(), definition.hash(), 0);
        TaskIdentity other = new TaskIdentity("leased", Partition.of("q"), "a", Optional.empty(), definition.hash(), 0);
        redis.tasks.submit(id.runKey(), id.runId(), new PendingInstance("a", Optional.empty(), definition.hash(), 0,
                "default", 1), new TaskInput("shell", JsonNodeFactory.instance.objectNode().put("command", "sleep 1"),
                Map.of(), Map.of()));
        RedisResourceStore resources = new RedisResourceStore(redis.pool, "l", 60_000);
        List<TaskIdentity> dispatched = new CopyOnWriteArrayList<>();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.port);
                UnifiedJedis viaProxy = new JedisPooled(new HostAndPort("127.0.0.1", proxy.port()),
                        DefaultJedisClientConfig.builder().timeoutMillis(400).build());
                ResourceGate gate = gate(resources, definition, dispatched::add, ticker)) {
            RedisTaskStore store = new RedisTaskStore(viaProxy, "l");
            assertThat(store.claim(id.runKey(), "nobody", RedisWorkers.LEASE.toMillis(), "w1"))
                    .isEqualTo(new TaskStore.Claim.Refused("unknown"));
            PoolWorker worker = redis.worker("default", 2, store, OperatorRegistry.builtIn(), (p, i) -> { }, gate);

            assertThat(worker.reserve(1, 0)).isEqualTo(1);
            proxy.dropNextReply();
            assertThatThrownBy(() -> worker.claimAndRun(List.of(id), () -> { }))
                    .isInstanceOf(JedisConnectionException.class);
            assertThat(instance(id).status()).isEqualTo(InstanceStatus.RUNNING);
            // another instance asks for the warehouse before the poll comes back: it waits
            assertThat(resources.grant(other.runId(), "g-other", List.of("warehouse"), 60_000,
                    new LeaseWaiter("default", other).encode())).isInstanceOf(ResourceStore.Grant.Waiting.class);

            // the poll comes back with the dispatch twice (one sent again by the reconciler, say): one copy asks
            // under the kept grant and runs; the other, refused at its claim, must not release the grant
            assertThat(worker.reserve(2, 0)).isEqualTo(2);
            assertThat(worker.claimAndRun(List.of(id, id), () -> { })).isTrue();
            assertThat(resources.resources().get("warehouse").holders()).extracting(ResourceStore.HeldBy::runId)
                    .containsExactly(id.runId());
            assertThat(dispatched).isEmpty();

            await().atMost(Duration.ofSeconds(20)).until(() -> instance(id).status() == InstanceStatus.SUCCEEDED);
            assertThat(instance(id).attempt()).isEqualTo(1);
            // its release lets the waiter in
            await().atMost(Duration.ofSeconds(20)).until(() -> dispatched.contains(other));
            assertThat(resources.resources().get("warehouse").holders()).isEmpty();
        } finally {
            ticker.shutdownNow();
        }
    }

    /**
     * docs/resources.md, "Waiting and fairness": a poll whose admission failed part way (Redis failed on a later
     * dispatch) comes back whole, and the grant it had made is asked for again under its id: the instance keeps its
     * place. Was: the grant was released, a waiter took the resource, and the instance joined the line's end.
     */
    @Test
    void aGrantMadeForAPollWhoseAdmissionFailedLaterIsKeptForThePollsReturn() throws Exception {
        Definition definition = leased("operator = \"noop\"");
        TaskIdentity first = new TaskIdentity("leased", Partition.of("p"), "a", Optional.empty(), definition.hash(), 0);
        TaskIdentity second = new TaskIdentity("leased", Partition.of("r"), "a", Optional.empty(), definition.hash(), 0);
        TaskIdentity other = new TaskIdentity("leased", Partition.of("q"), "a", Optional.empty(), definition.hash(), 0);
        for (TaskIdentity id : List.of(first, second)) {
            redis.tasks.submit(id.runKey(), id.runId(), new PendingInstance("a", Optional.empty(), definition.hash(), 0,
                    "default", 1), new TaskInput("noop", JsonNodeFactory.instance.nullNode(), Map.of(), Map.of()));
        }
        RedisResourceStore resources = new RedisResourceStore(redis.pool, "l", 60_000);
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        java.util.concurrent.atomic.AtomicBoolean failSecond = new java.util.concurrent.atomic.AtomicBoolean(true);
        try (ResourceGate real = gate(resources, definition, d -> { }, ticker)) {
            LeaseGate failing = new LeaseGate() {
                @Override
                public Admission admit(String pool, TaskIdentity id, Optional<String> grantId) {
                    if (id.equals(second) && failSecond.getAndSet(false)) {
                        throw new JedisConnectionException("Unexpected end of stream");
                    }
                    return real.admit(pool, id, grantId);
                }

                @Override
                public void hold(Admission.Granted grant, io.swale.operator.Cancellation cancellation) {
                    real.hold(grant, cancellation);
                }

                @Override
                public void release(ResourceStore.Holder holder) {
                    real.release(holder);
                }
            };
            PoolWorker worker = redis.worker("default", 2, redis.tasks, OperatorRegistry.builtIn(), (p, i) -> { },
                    failing);

            assertThat(worker.reserve(2, 0)).isEqualTo(2);
            assertThatThrownBy(() -> worker.claimAndRun(List.of(first, second), () -> { }))
                    .isInstanceOf(JedisConnectionException.class);
            assertThat(holders(resources)).containsExactly(first.runId());
            // another instance asks for the warehouse before the poll comes back: it waits
            assertThat(resources.grant(other.runId(), "g-other", List.of("warehouse"), 60_000,
                    new LeaseWaiter("default", other).encode())).isInstanceOf(ResourceStore.Grant.Waiting.class);

            assertThat(worker.reserve(2, 0)).isEqualTo(2);
            assertThat(worker.claimAndRun(List.of(first, second), () -> { })).isTrue();

            await().atMost(Duration.ofSeconds(20)).until(() -> instance(first).status() == InstanceStatus.SUCCEEDED);
            assertThat(instance(second).status()).as("waits its turn").isEqualTo(InstanceStatus.PENDING);
        } finally {
            ticker.shutdownNow();
        }
    }

    /**
     * A kept grant is released when the dispatch cannot come back to its worker: its partitions were revoked, or it
     * stops. Kept, the dispatch's next delivery, on another replica, would wait in line behind its own instance's
     * grant until that expired, and every other instance asking for the resource with it.
     */
    @Test
    void theKeptGrantIsReleasedWhenTheDispatchCannotComeBackAndWhenTheWorkerDrains() throws Exception {
        Definition definition = leased("operator = \"noop\"");
        TaskIdentity revoked = new TaskIdentity("leased", Partition.of("p"), "a", Optional.empty(), definition.hash(),
                0);
        TaskIdentity drained = new TaskIdentity("leased", Partition.of("q"), "a", Optional.empty(), definition.hash(),
                0);
        for (TaskIdentity id : List.of(revoked, drained)) {
            redis.tasks.submit(id.runKey(), id.runId(), new PendingInstance("a", Optional.empty(), definition.hash(),
                    0, "default", 1), new TaskInput("noop", JsonNodeFactory.instance.objectNode(), Map.of(), Map.of()));
        }
        RedisResourceStore resources = new RedisResourceStore(redis.pool, "l", 60_000);
        resources.setCapacity("warehouse", 2);
        List<TaskIdentity> dispatched = new CopyOnWriteArrayList<>();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.port);
                UnifiedJedis viaProxy = new JedisPooled(new HostAndPort("127.0.0.1", proxy.port()),
                        DefaultJedisClientConfig.builder().timeoutMillis(400).build());
                ResourceGate gate = gate(resources, definition, dispatched::add, ticker)) {
            RedisTaskStore store = new RedisTaskStore(viaProxy, "l");
            assertThat(store.claim(revoked.runKey(), "nobody", RedisWorkers.LEASE.toMillis(), "w1"))
                    .isEqualTo(new TaskStore.Claim.Refused("unknown"));
            PoolWorker worker = redis.worker("default", 2, store, OperatorRegistry.builtIn(), (p, i) -> { }, gate);
            for (TaskIdentity id : List.of(revoked, drained)) {
                assertThat(worker.reserve(1, 0)).isEqualTo(1);
                proxy.dropNextReply();
                assertThatThrownBy(() -> worker.claimAndRun(List.of(id), () -> { }))
                        .isInstanceOf(JedisConnectionException.class);
            }
            assertThat(resources.resources().get("warehouse").holders()).extracting(ResourceStore.HeldBy::runId)
                    .containsExactlyInAnyOrder(revoked.runId(), drained.runId());
            // the first dispatch's next delivery, on another replica: in line behind its own instance's grant
            assertThat(resources.grant(revoked.runId(), "g-elsewhere", List.of("warehouse"), 60_000,
                    new LeaseWaiter("default", revoked).encode())).isInstanceOf(ResourceStore.Grant.Waiting.class);

            // what the dispatch listener does when the first one's partition is revoked
            worker.releaseKeptGrants(revoked.runId()::equals, Runnable::run);
            assertThat(resources.resources().get("warehouse").holders()).extracting(ResourceStore.HeldBy::runId)
                    .containsExactly(drained.runId());
            assertThat(dispatched).as("the waiter let in by the release is dispatched again").contains(revoked);

            // then the worker stops: its drain releases the other one
            worker.beginDrain();
            worker.drain(Duration.ZERO);
            assertThat(resources.resources().get("warehouse").holders()).isEmpty();
        } finally {
            ticker.shutdownNow();
        }
    }

    /**
     * A grant whose reply was lost, perhaps granted, is asked for again under the same id, which answers the grant
     * made. When that answer is lost too, nobody would use or renew the grant, and the retried poll, asking under a
     * new id, would wait in line behind its own instance's grant for a whole lease: it is released at once.
     */
    @Test
    void aGrantWhoseReplyWasLostIsAskedAgainThenReleasedSoThatTheRetriedAskIsGranted() throws Exception {
        try (LossyGate lossy = new LossyGate()) {
            lossy.proxy.dropNextReply();
            LeaseGate.Admission asked = lossy.gate.admit("default", lossy.id);
            assertThat(lossy.proxy.dropped()).isEqualTo(1);
            assertThat(asked).as("answered by the ask again").isInstanceOf(LeaseGate.Admission.Granted.class);
            assertThat(holders(lossy.direct)).containsExactly(lossy.id.runId());
            lossy.gate.release(((LeaseGate.Admission.Granted) asked).holder());

            lossy.proxy.dropNextReply();
            lossy.proxy.dropNextReply();
            assertThatThrownBy(() -> lossy.gate.admit("default", lossy.id))
                    .isInstanceOf(JedisConnectionException.class);
            assertThat(lossy.proxy.dropped()).isEqualTo(3);

            assertThat(holders(lossy.direct)).as("no grant left behind").isEmpty();
            assertThat(lossy.gate.admit("default", lossy.id)).as("the poll's retry")
                    .isInstanceOf(LeaseGate.Admission.Granted.class);
        }
    }

    /**
     * A waiter let in whose grant's reply was lost keeps its place: the grant is answered by the ask again, not
     * released, which would send the waiter to the back of the line behind those who came after it.
     */
    @Test
    void aWaiterWhoseGrantsReplyWasLostKeepsItsPlaceInLine() throws Exception {
        try (LossyGate lossy = new LossyGate()) {
            assertThat(lossy.direct.grant("holder-r0", "g-holder", List.of("warehouse"), 60_000, "{}"))
                    .isInstanceOf(ResourceStore.Grant.Granted.class);
            assertThat(lossy.gate.admit("default", lossy.id)).isInstanceOf(LeaseGate.Admission.Waiting.class);
            // a later waiter, behind it: waits are ordered by the ms they began, so it asks in a later one
            long first = lossy.direct.resources().get("warehouse").waiting().getFirst().sinceMs();
            await().until(() -> redis.tasks.serverTimeMs() > first);
            assertThat(lossy.direct.grant("later-r0", "g-later", List.of("warehouse"), 60_000, "{}"))
                    .isInstanceOf(ResourceStore.Grant.Waiting.class);
            assertThat(lossy.direct.resources().get("warehouse").waiting()).extracting(ResourceStore.WaitedBy::runId)
                    .containsExactly(lossy.id.runId(), "later-r0");
            lossy.direct.release(new ResourceStore.Holder("holder-r0", "g-holder"), false);

            lossy.proxy.dropNextReply();
            assertThat(lossy.gate.admit("default", lossy.id)).isInstanceOf(LeaseGate.Admission.Granted.class);

            assertThat(lossy.proxy.dropped()).isEqualTo(1);
            assertThat(holders(lossy.direct)).containsExactly(lossy.id.runId());
            // its wait was in the lost answer: the ask again's 0 is not a wait
            assertThat(lossy.waits).isEmpty();
        }
    }

    /**
     * A lease gate for the instances of graph `leased` whose store talks to Redis through a proxy that can lose
     * replies, its grant script cached in Redis first (so that a lost reply is the grant's, not a NOSCRIPT's); the
     * instance {@code id} to admit, and a store that reads Redis directly.
     */
    private final class LossyGate implements AutoCloseable {
        final Definition definition = leased("operator = \"noop\"");
        final TaskIdentity id = new TaskIdentity("leased", Partition.of("p"), "a", Optional.empty(),
                definition.hash(), 0);
        final RedisResourceStore direct = new RedisResourceStore(redis.pool, "l", 60_000);
        final ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.port);
        final UnifiedJedis client = new JedisPooled(new HostAndPort("127.0.0.1", proxy.port()),
                DefaultJedisClientConfig.builder().timeoutMillis(400).build());
        final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        /** The waits the gate recorded, after the one of the grant that cached the script. */
        final List<Long> waits = new CopyOnWriteArrayList<>();
        final ResourceGate gate;

        LossyGate() throws IOException {
            gate = gate(new RedisResourceStore(client, "l", 60_000), definition, d -> { }, ticker,
                    (name, ms) -> waits.add(ms));
            cacheGrantScript(gate, definition);
            waits.clear();
        }

        @Override
        public void close() throws IOException {
            gate.close();
            client.close();
            proxy.close();
            ticker.shutdownNow();
        }
    }

    private static void cacheGrantScript(ResourceGate gate, Definition definition) {
        TaskIdentity other = new TaskIdentity("leased", Partition.of("q"), "a", Optional.empty(), definition.hash(), 0);
        LeaseGate.Admission first = gate.admit("default", other);
        assertThat(first).isInstanceOf(LeaseGate.Admission.Granted.class);
        gate.release(((LeaseGate.Admission.Granted) first).holder());
    }

    private static List<String> holders(RedisResourceStore store) {
        return Optional.ofNullable(store.resources().get("warehouse")).map(ResourceStore.Resource::holders)
                .orElse(List.<ResourceStore.HeldBy>of()).stream().map(ResourceStore.HeldBy::runId).toList();
    }

    /** Graph `leased` of one node `a` leasing `warehouse`, run by {@code operator} (its TOML lines). */
    private static Definition leased(String operator) {
        return new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS).load("""
                [graph]
                name = "leased"
                [[node]]
                name = "a"
                %s
                leases = ["warehouse"]
                """.formatted(operator), DefinitionFormat.TOML);
    }

    /** A lease gate over {@code resources} for {@code definition}'s instances, telling {@code woken} what it wakes. */
    private ResourceGate gate(ResourceStore resources, Definition definition,
            java.util.function.Consumer<TaskIdentity> woken, ScheduledExecutorService ticker) {
        return gate(resources, definition, woken, ticker, (name, ms) -> { });
    }

    private ResourceGate gate(ResourceStore resources, Definition definition,
            java.util.function.Consumer<TaskIdentity> woken, ScheduledExecutorService ticker,
            ResourceGate.WaitTimes waits) {
        return new ResourceGate(resources, redis.tasks, hash -> Optional.of(definition), (pool, d) -> woken.accept(d),
                new ResourceGate.Settings(RedisWorkers.LEASE.toMillis(), Duration.ofSeconds(10), false, Map.of()),
                name -> false, waits, ticker);
    }

    private TaskInstance instance(TaskIdentity id) {
        return new RedisRunStore(redis.pool, "l").instances(List.of(id.runKey())).get(id.runKey()).stream()
                .filter(i -> i.runId().equals(id.runId())).findFirst().orElseThrow();
    }
}
