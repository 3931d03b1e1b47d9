package io.swale.run;

import io.swale.task.ReconcilePass;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Reconciler#passAfterFault} on a thread of its own when a fault may have lost dispatches, so the
 * instances it left pending start within seconds rather than after {@code stale-dispatch}. A request made while
 * a pass runs gets one more pass after it; any number of requests made meanwhile share that one, and its log
 * line names all their faults.
 */
public final class AfterFaultReconcile implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AfterFaultReconcile.class);
    static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /** A pass asked for and not started yet: the faults it answers, and its end. */
    private record Queued(CompletableFuture<Void> done, Set<String> faults) {
        Queued(String fault) {
            this(new CompletableFuture<>(), Collections.synchronizedSet(new LinkedHashSet<>(List.of(fault))));
        }

        String faultsText() {
            synchronized (faults) {
                return String.join("; ", faults);
            }
        }
    }

    private final Supplier<ReconcilePass> pass;
    private final ExecutorService executor =
            Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("swale-fault-reconcile").factory());
    private final AtomicReference<Queued> queued = new AtomicReference<>();

    public AfterFaultReconcile(Supplier<ReconcilePass> pass) {
        this.pass = pass;
    }

    /**
     * Asks for a pass because of {@code fault}; returns at once. The future completes when a pass that started
     * after this call has run, exceptionally when it failed or none will run (closed).
     */
    public CompletableFuture<Void> request(String fault) {
        Queued mine = new Queued(fault);
        while (true) {
            Queued q = queued.get();
            if (q != null) {
                q.faults().add(fault);
                // still queued after the fault was added: it starts after this call, so it covers the fault
                if (queued.get() == q) {
                    return q.done();
                }
                continue;
            }
            if (queued.compareAndSet(null, mine)) {
                break;
            }
        }
        try {
            executor.execute(() -> {
                queued.compareAndSet(mine, null);
                run(mine);
            });
        } catch (RejectedExecutionException e) {
            // closed: the service is stopping, and the next start's pass repairs
            queued.compareAndSet(mine, null);
            mine.done().completeExceptionally(e);
        }
        return mine.done();
    }

    private void run(Queued q) {
        try {
            ReconcilePass p = pass.get();
            log.info("reconcile pass after fault=\"{}\" activeRuns={} submitted={} settled={} cancelled={}"
                    + " redispatched={} reaped={} restored={} failed={}", q.faultsText(), p.activeRuns(),
                    p.submitted(), p.settled(), p.cancelled(), p.redispatched(), p.reaped(), p.restored(), p.failed());
            q.done().complete(null);
        } catch (RuntimeException | Error e) {
            log.warn("reconcile pass after fault=\"{}\" failed error={}", q.faultsText(), e.toString());
            q.done().completeExceptionally(e);
            if (e instanceof Error error) {
                throw error;
            }
        }
    }

    /** Lets a pass already asked for finish, for at most {@link #CLOSE_WAIT}; then interrupts it. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
        // a pass dropped by shutdownNow never runs: its callers are told so
        Queued dropped = queued.getAndSet(null);
        if (dropped != null) {
            dropped.done().completeExceptionally(new RejectedExecutionException("closed before the pass ran"));
        }
    }
}
