package io.swale.request;

import io.swale.graph.Partition;
import io.swale.logging.LogContext;
import io.swale.record.AdminRequest;
import io.swale.record.RecordException;
import io.swale.record.RequestJson;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import io.swale.run.GraphRuns;
import io.swale.run.RerunOutcome;
import io.swale.run.RunCancellation;
import io.swale.run.RunReruns;
import io.swale.store.RequestStore;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import io.swale.task.SwaleException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admin requests applied at most once per request id (spec §10): a record that exists answers the request;
 * otherwise one call at a time holds the id, applies the request and records its outcome with its expiry entry
 * (an equal request sent meanwhile is answered {@link InProgress}), renewing its hold while it handles it. A
 * rerun's record commits with the expectation it answers (or, when the expectations were already in place,
 * with the submission). A transient failure records nothing else and propagates.
 */
public final class Requests implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Requests.class);

    /** The same request id was used before for another request. */
    public static final class KeyReused extends RuntimeException {
        public KeyReused(String id) {
            super("request id `" + id + "` was used for a different request");
        }
    }

    /** An equal request under the same id is being handled by another call now: retry it with the same id. */
    public static final class InProgress extends RuntimeException {
        public InProgress(String id) {
            super("a request with id `" + id + "` is being handled, or its handling failed less than "
                    + MAX_HANDLING.toSeconds() + " s ago; send it again with the same id to get its outcome");
        }
    }

    /**
     * How long a request id stays held after its handling call last renewed it: a call that died lets a retry
     * through after this.
     */
    static final java.time.Duration MAX_HANDLING = java.time.Duration.ofSeconds(60);

    private final GraphRuns graphRuns;
    private final RunReruns reruns;
    private final RunCancellation cancellation;
    private final RequestStore store;
    private final RunStore runs;
    private final Clock clock;
    private final HoldRenewal renewal;

    public Requests(GraphRuns graphRuns, RunReruns reruns, RunCancellation cancellation, RequestStore store,
            RunStore runs, Clock clock) {
        this(graphRuns, reruns, cancellation, store, runs, clock, new HoldRenewal(store, MAX_HANDLING));
    }

    Requests(GraphRuns graphRuns, RunReruns reruns, RunCancellation cancellation, RequestStore store,
            RunStore runs, Clock clock, HoldRenewal renewal) {
        this.graphRuns = graphRuns;
        this.reruns = reruns;
        this.cancellation = cancellation;
        this.store = store;
        this.runs = runs;
        this.clock = clock;
        this.renewal = renewal;
    }

    @Override
    public void close() {
        renewal.close();
    }

    public Optional<RequestRecord> find(RequestId id) {
        return store.get(id.value());
    }

    /** Handles a request under an id, or answers from the record an earlier request with that id wrote. */
    public RequestRecord handle(Optional<RequestId> given, AdminRequest request) {
        long now = clock.millis();
        RequestId id = given.orElseGet(() -> RequestId.generate(now));
        Optional<RequestRecord> existing = find(id);
        if (existing.isPresent()) {
            return replay(existing.get(), request);
        }
        // held before any effect: a different request under this id is refused, and an equal one sent while this
        // is handled (a client's retry) is told to come back for the outcome rather than applied twice
        return switch (store.hold(id.value(), request, MAX_HANDLING)) {
            case RequestStore.Hold.Taken t ->
                    find(id).map(r -> replay(r, request)).orElseThrow(() -> new KeyReused(id.value()));
            case RequestStore.Hold.Busy b ->
                    find(id).map(r -> replay(r, request)).orElseThrow(() -> new InProgress(id.value()));
            case RequestStore.Hold.Held h -> {
                try (HoldRenewal.Kept kept = renewal.keep(id, h)) {
                    // the call that handled it before may have recorded the outcome and let go since the look above
                    Optional<RequestRecord> recorded = find(id);
                    yield recorded.isPresent() ? replay(recorded.get(), request) : apply(id, request, now);
                } finally {
                    release(id, h);
                }
            }
        };
    }

    private RequestRecord apply(RequestId id, AdminRequest request, long now) {
        RequestRecord handled = switch (request) {
            case AdminRequest.Start s -> refusedIfMalformed(id, s, now, () -> record(id, s, now, start(s)));
            case AdminRequest.Rerun r -> refusedIfMalformed(id, r, now, () -> rerun(id, r, now));
            case AdminRequest.Cancel c -> refusedIfMalformed(id, c, now, () -> cancel(id, c, now));
        };
        try (LogContext ignored = LogContext.run(request.graph(), null)) {
            log.info("request id={} kind={} outcome={}", id, RequestJson.request(request).path("kind").asString(),
                    RequestJson.outcome(handled.outcome()).path("kind").asString());
        }
        return handled;
    }

    /** Lets an equal request go on; one that cannot be let go now is let go by its time limit. */
    private void release(RequestId id, RequestStore.Hold.Held held) {
        try {
            store.release(id.value(), held);
        } catch (RuntimeException e) {
            // the outcome stands: failing the call now would hide a request that took effect
            log.warn("request id={} not let go; an equal request waits up to {} error={}", id, MAX_HANDLING, e.toString());
        }
    }

    private RequestRecord replay(RequestRecord stored, AdminRequest request) {
        if (!stored.request().equals(request)) {
            throw new KeyReused(stored.id());
        }
        return stored.asReplayed();
    }

    private RequestOutcome start(AdminRequest.Start s) {
        try {
            List<Partition> started = graphRuns.startRuns(s.graph(), s.partitions());
            return new RequestOutcome.Started(started);
        } catch (SwaleException e) {
            return refusedIfPermanent(e);
        }
    }

    private RequestRecord cancel(RequestId id, AdminRequest.Cancel c, long now) {
        RequestRecord cancelled = new RequestRecord(id.value(), c, now, new RequestOutcome.Cancelled(), false);
        if (cancellation.cancel(c.graph(), c.partition(), Optional.of(new TaskStore.RequestWrite(cancelled)))) {
            // committed with the cancelled run record
            return find(id).orElseGet(() -> record(id, c, now, cancelled.outcome()));
        }
        if (runs.read(new RunKey(c.graph(), c.partition())).isEmpty()) {
            return record(id, c, now, new RequestOutcome.Refused(
                    new SwaleException.UnknownGraphRun(c.graph(), c.partition().key()).getMessage()));
        }
        return record(id, c, now, new RequestOutcome.Refused(Refusals.notActive(c.graph(), c.partition().key())));
    }

    private RequestRecord rerun(RequestId id, AdminRequest.Rerun r, long now) {
        RerunOutcome outcome;
        try {
            outcome = reruns.rerun(r.graph(), r.partition(), r.node(), runId -> Optional.of(new TaskStore.RequestWrite(
                    new RequestRecord(id.value(), r, now, new RequestOutcome.Rerun(runId), false))));
        } catch (SwaleException e) {
            return record(id, r, now, refusedIfPermanent(e));
        }
        return switch (outcome) {
            // the record committed with the run record's expectation, or with the submission when the expectations
            // were already in place;
            // written here only by a store that could not (none today)
            case RerunOutcome.Submitted s -> find(id).orElseGet(
                    () -> record(id, r, now, new RequestOutcome.Rerun(s.runId())));
            case RerunOutcome.Active a -> record(id, r, now, new RequestOutcome.Refused(Refusals.active(a.runId())));
            case RerunOutcome.NotReady n -> record(id, r, now, new RequestOutcome.Refused(Refusals.notReady(n.node())));
            case RerunOutcome.NoRecord n -> record(id, r, now, new RequestOutcome.Refused(Refusals.noRecord(n.node())));
        };
    }

    /**
     * A stored record that does not parse stays so (spec §7.12): the request is refused naming it, and recorded. Each
     * request reads the record it could meet so before it writes anything: a rerun and a cancel their run, a start
     * its graph record (it creates runs create-only and reads no run record).
     */
    private RequestRecord refusedIfMalformed(RequestId id, AdminRequest request, long now,
            java.util.function.Supplier<RequestRecord> handling) {
        try {
            return handling.get();
        } catch (RecordException e) {
            return record(id, request, now, new RequestOutcome.Refused(e.getMessage()));
        }
    }

    private static RequestOutcome refusedIfPermanent(SwaleException e) {
        return switch (e) {
            case SwaleException.Permanent p -> new RequestOutcome.Refused(p.getMessage());
            case SwaleException.Transient t -> throw t;
        };
    }

    /** Writes the record with its expiry entry; if another request with this id won, answers with its record. */
    private RequestRecord record(RequestId id, AdminRequest request, long now, RequestOutcome outcome) {
        RequestRecord record = new RequestRecord(id.value(), request, now, outcome, false);
        if (store.putIfAbsent(record)) {
            return record;
        }
        return find(id).map(r -> replay(r, request)).orElse(record);
    }
}
