package io.swale.worker;

import io.swale.definition.Definition;
import io.swale.graph.Node;
import io.swale.store.ResourceStore;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import io.swale.task.Dispatcher;
import io.swale.task.LeaseWaiter;
import io.swale.task.TaskIdentity;
import io.swale.template.LeaseNames;
import io.swale.template.RenderContext;
import io.swale.template.RenderException;
import io.swale.template.UpstreamStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.swale.operator.Cancellation;

/**
 * The worker's side of the grant protocol (docs/resources.md): render the node's lease names for the
 * instance, take them all before its claim or queue it, renew every grant of this replica in one script per
 * heartbeat, and release each after its attempt, dispatching the waiters the release lets in.
 */
public final class ResourceGate implements LeaseGate, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ResourceGate.class);

    /** How long grants last and how often they are renewed; {@code strict}: undeclared names fail the instance. */
    public record Settings(long leaseMs, Duration heartbeat, boolean strict, Map<String, String> environment) {}

    /** Where the wait before a grant is reported (the lease as the node writes it, ms). */
    public interface WaitTimes {
        void waited(String resource, long millis);
    }

    private final ResourceStore store;
    private final TaskStore tasks;
    private final Function<String, Optional<Definition>> definitions;
    private final Dispatcher dispatcher;
    private final Settings settings;
    private final Predicate<String> declared;
    private final WaitTimes waitTimes;
    private final GrownNodes grown;
    private final Map<ResourceStore.Holder, Held> held = new ConcurrentHashMap<>();
    private final long leaseNanos;
    private final long heartbeatNanos;
    // the renewal thread's own: when the last renewal that answered was sent
    private long renewedAt = System.nanoTime();
    private final ScheduledFuture<?> renewals;
    private final ScheduledFuture<?> deadlines;

    /** A grant an attempt runs under, and until when this replica surely holds it. */
    private static final class Held {
        final Cancellation cancellation;
        volatile long until;

        Held(Cancellation cancellation, long until) {
            this.cancellation = cancellation;
            this.until = until;
        }
    }

    public ResourceGate(ResourceStore store, TaskStore tasks, Function<String, Optional<Definition>> definitions,
            Dispatcher dispatcher, Settings settings, Predicate<String> declared, WaitTimes waitTimes,
            ScheduledExecutorService ticker) {
        this(store, tasks, definitions, dispatcher, settings, declared, waitTimes, ticker, GrownNodes.NONE);
    }

    /** As above; {@code grown} finds the nodes a run grew (their leases are held like any node's). */
    public ResourceGate(ResourceStore store, TaskStore tasks, Function<String, Optional<Definition>> definitions,
            Dispatcher dispatcher, Settings settings, Predicate<String> declared, WaitTimes waitTimes,
            ScheduledExecutorService ticker, GrownNodes grown) {
        this.grown = grown;
        this.store = store;
        this.tasks = tasks;
        this.definitions = definitions;
        this.dispatcher = dispatcher;
        this.settings = settings;
        this.declared = declared;
        this.waitTimes = waitTimes;
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(settings.leaseMs());
        this.heartbeatNanos = settings.heartbeat().toNanos();
        // renewed once a heartbeat, but checked more often: an attempt whose grant may have expired stops within
        // about a second, as one whose claim lease ran out does
        long every = Math.max(50, Math.min(settings.heartbeat().toMillis(), 1_000));
        this.renewals = ticker.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
        // watched where no call to the store waits: a renewal that hangs on an unanswering Redis holds the ticker's
        // thread, and an attempt whose grant ran out meanwhile would run on beside the instance granted it next
        this.deadlines = LeaseKeeper.DEADLINES.scheduleWithFixedDelay(this::watchDeadlines, every, every,
                TimeUnit.MILLISECONDS);
    }

    @Override
    public Admission admit(String pool, TaskIdentity id, Optional<String> grantId) {
        Admission admission = decide(pool, id, grantId);
        if (admission instanceof Admission.Refused) {
            // a waiter refused now (its definition gone, a name no longer declared) would otherwise keep its
            // place in line for good: the refusal fails the instance, so it waits for nothing any more; a grant
            // kept for its claim in doubt goes too
            try {
                wake(store.release(new ResourceStore.Holder(id.runId(), grantId.orElse("")), true).wake());
            } catch (RuntimeException e) {
                log.warn("refused instance still in a lease queue, the stale-waiter check drops it runId={} error={}",
                        id.runId(), e.toString());
            }
        }
        return admission;
    }

    private Admission decide(String pool, TaskIdentity id, Optional<String> grantId) {
        Optional<Definition> definition;
        try {
            definition = definitions.apply(id.definition());
        } catch (io.swale.run.UnloadableDefinitionException e) {
            // a stored definition this worker cannot load fails the instance, never the whole poll again and again
            return new Admission.Refused("the definition " + id.definition() + " of node `" + id.node()
                    + "` does not load on this worker, so its leases cannot be known: " + e.getCause().getMessage());
        }
        if (definition.isEmpty()) {
            return new Admission.Refused("the definition " + id.definition() + " of node `" + id.node()
                    + "` is unknown, so its leases cannot be known");
        }
        // an item of a mapped node (`each[3]`) takes the leases of its node, each item its own grant
        String nodeName = io.swale.graph.ItemName.nodeOf(id.node());
        // a name the definition lacks is a grown node (§8): only then is the run's growth read
        Optional<Node> node = definition.get().graph().node(nodeName);
        if (node.isEmpty()) {
            try {
                node = grown.find(id, definition.get(), nodeName);
            } catch (RuntimeException e) {
                // the run cannot be read now: leave the dispatch to be delivered again rather than run unleased
                throw new IllegalStateException("the growth of run " + id.runKey().runId(nodeName, id.rerun())
                        + " cannot be read, so the leases of node `" + id.node() + "` cannot be known", e);
            }
            if (node.isEmpty()) {
                // a rerun took its growth out of the run and cancels it next: never run it, leased or not, in
                // between (nor ever, should that rerun's scheduler die before its cancel, or its attempt declare
                // the node again: this instance is then older than the node's expected rerun)
                return new Admission.Refused("node `" + id.node() + "` is no longer part of the run's graph, or "
                        + "its instance at rerun " + id.rerun() + " is obsolete (the growth that added it was "
                        + "replaced by a rerun), so its leases cannot be known");
            }
        }
        List<String> templates = node.map(Node::leases).orElse(List.of());
        if (templates.isEmpty()) {
            return new Admission.Free();
        }
        Map<String, String> byTemplate;
        try {
            byTemplate = names(id, templates);
        } catch (RenderException e) {
            return new Admission.Refused("node `" + id.node() + "`: " + e.getMessage());
        }
        if (settings.strict()) {
            for (Map.Entry<String, String> e : byTemplate.entrySet()) {
                if (!declared.test(e.getValue())) {
                    String from = e.getKey().equals(e.getValue()) ? "" : " (rendered from lease `" + e.getKey() + "`)";
                    return new Admission.Refused("node `" + id.node() + "` leases `" + e.getValue() + "`" + from
                            + ", which has no declared capacity (swale.resources.strict is on)");
                }
            }
        }
        List<String> names = List.copyOf(new LinkedHashSet<>(byTemplate.values()));
        ResourceStore.Holder holder = new ResourceStore.Holder(id.runId(),
                grantId.orElseGet(() -> UUID.randomUUID().toString()));
        long asked = System.nanoTime();
        ResourceStore.Grant grant;
        String waiter = new LeaseWaiter(pool, id).encode();
        // asked under a grant id asked for before, a grant is answered as made already, with no wait of its own
        boolean askedBefore = grantId.isPresent();
        try {
            grant = store.grant(holder.runId(), holder.grantId(), names, settings.leaseMs(), waiter);
        } catch (RuntimeException e) {
            if (grantId.isPresent()) {
                throw e;
            }
            // its answer lost, the ask may have been granted, and the grant took the waiter's place in line. Asked
            // again under the same id, a grant made is answered as granted, and a wait keeps its place; released
            // under a new id, a waiter would go to the back of every line. Only when that fails too is the grant
            // freed at once (nobody would use or renew it, and the retried poll would wait behind it), fenced by its
            // id (a no-op when nothing was granted); a release that fails too leaves it to expire
            try {
                grant = store.grant(holder.runId(), holder.grantId(), names, settings.leaseMs(), waiter);
                askedBefore = true;
            } catch (RuntimeException again) {
                e.addSuppressed(again);
                release(holder);
                throw e;
            }
        }
        if (!grant.wake().isEmpty()) {
            try {
                wake(grant.wake());
            } catch (RuntimeException e) {
                // marked woken but not sent: the reap wakes them again after the wake interval
                log.warn("waiters let in by an expired grant not dispatched runId={} error={}", id.runId(), e.toString());
            }
        }
        return switch (grant) {
            case ResourceStore.Grant.Granted g -> {
                // by the lease as written: a templated name (`agent:{{ partition }}`) is one series, not one a day;
                // the wait of a grant made before was in the answer to that ask (or lost with it)
                if (!askedBefore) {
                    templates.stream().distinct().forEach(t -> waitTimes.waited(t, g.waitedMs()));
                }
                yield new Admission.Granted(holder, names, asked);
            }
            case ResourceStore.Grant.Waiting w -> {
                log.info("waiting for lease runId={} resource={} since={}", id.runId(), w.blockedBy(), w.sinceMs());
                yield new Admission.Waiting(w.blockedBy());
            }
        };
    }

    /**
     * Each lease template's name, in the order written: literal ones as written, templated ones rendered with the
     * instance's stored input (read only for those).
     */
    private Map<String, String> names(TaskIdentity id, List<String> templates) {
        boolean literal = LeaseNames.literals(templates).size() == templates.size();
        return LeaseNames.renderEach(templates,
                context(id, literal ? Optional.empty() : tasks.input(id.runKey(), id.runId())));
    }

    private RenderContext context(TaskIdentity id, Optional<TaskInput> input) {
        Map<String, tools.jackson.databind.JsonNode> outputs = new LinkedHashMap<>();
        Map<String, UpstreamStatus> upstreams = new LinkedHashMap<>();
        input.ifPresent(i -> {
            outputs.putAll(i.inputs());
            i.upstreams().forEach((up, u) -> upstreams.put(up, new UpstreamStatus(u.status(), u.error())));
        });
        return new RenderContext(id.graph(), id.node(), id.partition().key(), id.runId(), outputs, upstreams,
                name -> Optional.ofNullable(settings.environment().get(name)),
                input.flatMap(TaskInput::item).map(i -> new RenderContext.MapItem(i.index(), i.value())));
    }

    @Override
    public void hold(Admission.Granted grant, Cancellation cancellation) {
        // its lease runs from the ask at the latest
        held.put(grant.holder(), new Held(cancellation, grant.askedAtNanos() + leaseNanos));
    }

    @Override
    public void release(ResourceStore.Holder holder) {
        held.remove(holder);
        try {
            wake(store.release(holder, false).wake());
        } catch (RuntimeException e) {
            log.warn("lease release failed, the grant expires instead runId={} error={}", holder.runId(), e.toString());
        }
    }

    /** Dispatches woken waiters again: any worker of their pool may take them. */
    public void wake(List<String> dispatches) {
        for (String d : dispatches) {
            LeaseWaiter.decode(d).ifPresentOrElse(w -> dispatcher.dispatch(w.pool(), w.identity()),
                    () -> log.warn("unreadable waiter dispatch dropped: {}", d));
        }
    }

    private void tick() {
        try {
            long now = System.nanoTime();
            if (now - renewedAt >= heartbeatNanos) {
                renew(now);
            }
        } catch (RuntimeException e) {
            // a periodic task that throws is never run again: every grant would go unrenewed
            log.error("lease renewal tick failed count={}", held.size(), e);
        }
    }

    private void watchDeadlines() {
        try {
            stopOverdue(System.nanoTime());
        } catch (RuntimeException e) {
            // a periodic task that throws is never run again: no overdue grant would stop its attempt
            log.error("lease grant deadline check failed count={}", held.size(), e);
        }
    }

    private void renew(long sentAt) {
        if (held.isEmpty()) {
            renewedAt = sentAt;
            return;
        }
        try {
            List<ResourceStore.Holder> holders = new ArrayList<>(held.keySet());
            List<String> lostRunIds = store.renew(holders, settings.leaseMs());
            renewedAt = sentAt;
            for (ResourceStore.Holder h : holders) {
                if (lostRunIds.contains(h.runId())) {
                    Held lost = held.remove(h);
                    if (lost != null) {
                        log.warn("lease grant lost, stopping the attempt runId={}", h.runId());
                        lost.cancellation.cancel(CancelReason.GRANT_LOST);
                    }
                } else {
                    // renewed from when the call was sent, at the latest
                    Optional.ofNullable(held.get(h)).ifPresent(x -> x.until = sentAt + leaseNanos);
                }
            }
        } catch (RuntimeException e) {
            // tried again at the next tick; an attempt whose grant may have expired meanwhile is stopped
            log.warn("lease renewal failed count={} error={}", held.size(), e.toString());
        }
    }

    /**
     * Stops each attempt whose grant was not renewed within its lease: Redis may have freed it and granted it to
     * another, so running on would exceed the resource's capacity (docs/resources.md).
     */
    private void stopOverdue(long now) {
        held.forEach((h, x) -> {
            if (now - x.until >= 0 && held.remove(h, x)) {
                log.warn("lease grant not renewed within its lease, stopping the attempt runId={}", h.runId());
                x.cancellation.cancel(CancelReason.GRANT_LOST);
            }
        });
    }

    @Override
    public void close() {
        renewals.cancel(false);
        deadlines.cancel(false);
    }
}
