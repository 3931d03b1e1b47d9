package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.definition.CronCheck;
import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.DefinitionLoader;
import io.swale.graph.Partition;
import io.swale.operator.Cancellation;
import io.swale.operator.OperatorRegistry;
import io.swale.store.ResourceStore;
import io.swale.task.TaskIdentity;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A grant lasts one lease from its last renewal that answered. A worker whose renewals stop answering (Redis out
 * of reach) stops the attempt once that lease may be over, as it does when its claim's lease runs out: Redis may
 * have freed the grant and given it to another instance, which would then run beside it over the capacity.
 */
class ResourceGateRenewalTest {
    private static final long LEASE_MS = 400;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final AtomicBoolean redisDown = new AtomicBoolean();
    private final AtomicBoolean redisHangs = new AtomicBoolean();
    private final java.util.concurrent.CountDownLatch answer = new java.util.concurrent.CountDownLatch(1);
    private final AtomicInteger renewals = new AtomicInteger();
    private volatile List<String> grantWakes = List.of();
    private final List<ResourceStore.Holder> released = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Definition definition = new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS).load("""
            [graph]
            name = "leased"
            [[node]]
            name = "a"
            operator = "noop"
            leases = ["warehouse"]
            """, DefinitionFormat.TOML);

    @AfterEach
    void stop() {
        answer.countDown();
        ticker.shutdownNow();
    }

    /** Grants every ask; renews while Redis is up, else fails as a lost connection does. */
    private ResourceStore store() {
        return (ResourceStore) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ResourceStore.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "grant" -> new ResourceStore.Grant.Granted(0, grantWakes);
                    case "leave", "release" -> {
                        if (method.getName().equals("release")) {
                            released.add((ResourceStore.Holder) args[0]);
                        }
                        yield new ResourceStore.Released(false, List.of());
                    }
                    case "renew" -> {
                        renewals.incrementAndGet();
                        if (redisHangs.get()) {
                            answer.await();
                        }
                        if (redisDown.get()) {
                            throw new IllegalStateException("connection reset");
                        }
                        yield List.of();
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private Cancellation runUnderGrant() {
        ResourceGate gate = new ResourceGate(store(), new FakeTaskStore(new java.util.concurrent.atomic.AtomicLong(), Duration.ofMinutes(1)), hash -> Optional.of(definition),
                (pool, id) -> { }, new ResourceGate.Settings(LEASE_MS, Duration.ofMillis(100), false, Map.of()),
                name -> false, (name, ms) -> { }, ticker);
        TaskIdentity id = new TaskIdentity("leased", Partition.of("p"), "a", Optional.empty(), definition.hash(), 0);
        LeaseGate.Admission admission = gate.admit("default", id);
        assertThat(admission).isInstanceOf(LeaseGate.Admission.Granted.class);
        Cancellation cancellation = new Cancellation();
        gate.hold((LeaseGate.Admission.Granted) admission, cancellation);
        return cancellation;
    }

    @Test
    void anAttemptWhoseGrantIsNotRenewedWithinItsLeaseIsStopped() {
        redisDown.set(true);
        Cancellation cancellation = runUnderGrant();

        await().atMost(Duration.ofSeconds(10)).until(cancellation::isCancelled);
        assertThat(cancellation.isCancelledFor(CancelReason.GRANT_LOST)).isTrue();
        assertThat(renewals.get()).isPositive();
    }

    /**
     * A renewal that hangs (a Redis that takes the call and never answers) holds the ticker's only thread; the
     * grant's end is watched elsewhere, so the attempt stops all the same. Was: checked on that thread, after it.
     */
    @Test
    void anAttemptWhoseRenewalHangsIsStoppedOnceItsGrantMayHaveEnded() {
        redisHangs.set(true);
        Cancellation cancellation = runUnderGrant();

        await().atMost(Duration.ofSeconds(10)).until(cancellation::isCancelled);
        assertThat(cancellation.isCancelledFor(CancelReason.GRANT_LOST)).isTrue();
        assertThat(renewals.get()).isEqualTo(1);
    }

    @Test
    void anAttemptWhoseRenewalsAnswerRunsPastItsFirstLease() {
        Cancellation cancellation = runUnderGrant();

        // ten renewals take about 2.5 leases
        await().atMost(Duration.ofSeconds(10)).until(() -> renewals.get() >= 10);
        assertThat(cancellation.isCancelled()).isFalse();
    }

    /** docs/resources.md, `leases`: a refusal in strict mode names the node, the template and the fault. */
    @Test
    void aStrictRefusalOfARenderedNameNamesItsTemplate() {
        Definition templated = new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS).load("""
                [graph]
                name = "leased"
                [[node]]
                name = "a"
                operator = "noop"
                leases = ["agent:{{ partition }}"]
                """, DefinitionFormat.TOML);
        ResourceGate gate = new ResourceGate(store(), new FakeTaskStore(new java.util.concurrent.atomic.AtomicLong(),
                Duration.ofMinutes(1)), hash -> Optional.of(templated), (pool, id) -> { },
                new ResourceGate.Settings(LEASE_MS, Duration.ofMillis(100), true, Map.of()), name -> false,
                (name, ms) -> { }, ticker);
        TaskIdentity id = new TaskIdentity("leased", Partition.of("p7"), "a", Optional.empty(), templated.hash(), 0);

        LeaseGate.Admission admission = gate.admit("default", id);

        assertThat(admission).isInstanceOf(LeaseGate.Admission.Refused.class);
        assertThat(((LeaseGate.Admission.Refused) admission).reason()).isEqualTo("node `a` leases `agent:p7` (rendered"
                + " from lease `agent:{{ partition }}`), which has no declared capacity (swale.resources.strict is on)");
    }

    /** An ask that freed its instance's own expired grant answers the waiters that lets in: they are sent again. */
    @Test
    void theWaitersThatAnAskLetsInAreDispatchedAgain() {
        TaskIdentity waiter = new TaskIdentity("leased", Partition.of("q"), "a", Optional.empty(), definition.hash(), 0);
        grantWakes = List.of(new io.swale.task.LeaseWaiter("default", waiter).encode());
        List<TaskIdentity> dispatched = new java.util.concurrent.CopyOnWriteArrayList<>();
        ResourceGate gate = new ResourceGate(store(), new FakeTaskStore(new java.util.concurrent.atomic.AtomicLong(),
                Duration.ofMinutes(1)), hash -> Optional.of(definition), (pool, id) -> dispatched.add(id),
                new ResourceGate.Settings(LEASE_MS, Duration.ofMillis(100), false, Map.of()), name -> false,
                (name, ms) -> { }, ticker);
        TaskIdentity id = new TaskIdentity("leased", Partition.of("p"), "a", Optional.empty(), definition.hash(), 0);

        assertThat(gate.admit("default", id)).isInstanceOf(LeaseGate.Admission.Granted.class);
        assertThat(dispatched).containsExactly(waiter);
    }

    /**
     * A grown node no longer in the run's graph (a rerun took its growth out, and cancels it next) is never run,
     * leased or not. Was: admitted as leasing nothing, so it could run unleased in that window.
     */
    @Test
    void aNodeNeitherInTheDefinitionNorGrownInTheRunIsRefused() {
        ResourceGate gate = new ResourceGate(store(), new FakeTaskStore(new java.util.concurrent.atomic.AtomicLong(),
                Duration.ofMinutes(1)), hash -> Optional.of(definition), (pool, id) -> { },
                new ResourceGate.Settings(LEASE_MS, Duration.ofMillis(100), false, Map.of()), name -> false,
                (name, ms) -> { }, ticker, GrownNodes.NONE);
        TaskIdentity id = new TaskIdentity("leased", Partition.of("p"), "fix", Optional.empty(), definition.hash(), 0);

        LeaseGate.Admission admission = gate.admit("default", id);

        assertThat(admission).isInstanceOf(LeaseGate.Admission.Refused.class);
        assertThat(((LeaseGate.Admission.Refused) admission).reason()).contains("`fix` is no longer part of the run's graph");
        // a grant kept for its claim in doubt is freed with its place in line
        assertThat(gate.admit("default", id, Optional.of("kept"))).isInstanceOf(LeaseGate.Admission.Refused.class);
        assertThat(released).containsExactly(new ResourceStore.Holder(id.runId(), ""),
                new ResourceStore.Holder(id.runId(), "kept"));
    }
}
