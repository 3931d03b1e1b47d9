package io.swale.run;

import io.swale.record.GraphRunRecord;
import io.swale.store.ExpiryStore.Entry;
import io.swale.store.ExpiryStore;
import io.swale.store.RunKey;
import io.swale.store.StoredRun;
import io.swale.task.SwaleException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retention pass (spec §12): walks the expiry entries older than the retention window, oldest first.
 * A stale entry (its run or request is gone, the run was re-settled or is active again) is dropped; a settled
 * run is removed with its node records and task instances if it is unchanged, a request record likewise. An
 * entry that fails (a malformed record, a failed call) is kept and reported, and the pass goes on to the later
 * entries; a store that cannot list the due entries stops the pass.
 */
public final class RetentionPass {
    private static final Logger log = LoggerFactory.getLogger(RetentionPass.class);
    private static final int BATCH = 200;

    /**
     * What one pass removed.
     *
     * @param stale entries dropped without removing anything else
     * @param error why the pass stopped early, or the first entry it had to keep for an error
     */
    public record Report(int runs, int requests, int stale, Optional<String> error) {}

    private enum Outcome { REMOVED, REQUEST_REMOVED, STALE, KEPT }

    private final ExpiryStore store;
    private final DefinitionCatalog catalog;
    private final Clock clock;
    private final Duration retention;

    public RetentionPass(ExpiryStore store, DefinitionCatalog catalog, Clock clock, Duration retention) {
        this.store = store;
        this.catalog = catalog;
        this.clock = clock;
        this.retention = retention;
    }

    public Duration retention() {
        return retention;
    }

    public synchronized Report run() {
        long now = clock.millis();
        long cutoff;
        try {
            cutoff = Math.subtractExact(now, retention.toMillis());
        } catch (ArithmeticException e) {
            return new Report(0, 0, 0, Optional.empty());
        }
        int runs = 0;
        int requests = 0;
        int stale = 0;
        int kept = 0;
        Optional<String> firstError = Optional.empty();
        while (true) {
            List<Entry> batch;
            try {
                batch = store.due(cutoff, kept, BATCH);
            } catch (RuntimeException e) {
                return done(new Report(runs, requests, stale, Optional.of("store failure: " + e.getMessage())));
            }
            if (batch.isEmpty()) {
                return done(new Report(runs, requests, stale, firstError));
            }
            for (Entry entry : batch) {
                Outcome outcome;
                try {
                    outcome = expire(entry);
                } catch (RuntimeException e) {
                    // one bad record must not keep every later entry: it is kept, reported, and the pass goes on
                    String error = "entry `" + entry.target() + "`: " + e.getMessage();
                    log.warn("retention kept an entry it could not expire target={} error={}", entry.target(),
                            e.getMessage());
                    firstError = firstError.isPresent() ? firstError : Optional.of(error);
                    outcome = Outcome.KEPT;
                }
                switch (outcome) {
                    case REMOVED -> runs++;
                    case REQUEST_REMOVED -> requests++;
                    case STALE -> stale++;
                    case KEPT -> kept++;
                }
            }
        }
    }

    /**
     * A stale entry is deleted. One the store cannot delete (written by hand where it does not look for it, or with
     * a score that is no whole number) is passed over as kept: the next read would hand it back for ever.
     */
    private Outcome dropStale(Entry entry) {
        if (store.removeEntry(entry)) {
            return Outcome.STALE;
        }
        log.warn("retention passed over a stale expiry entry it could not delete target={} atMs={}", entry.target(),
                entry.atMs());
        return Outcome.KEPT;
    }

    private Outcome expire(Entry entry) {
        String target = entry.target();
        if (target.startsWith("req:")) {
            return switch (store.expireRequest(target.substring(4), entry)) {
                case REMOVED -> Outcome.REQUEST_REMOVED;
                case STALE -> Outcome.STALE;
                case CHANGED -> Outcome.KEPT;
            };
        }
        Optional<RunKey> key = target.startsWith("run:") ? RunKey.parse(target.substring(4)) : Optional.empty();
        if (key.isEmpty()) {
            log.warn("retention dropped an expiry entry whose target does not parse target={}", target);
            return dropStale(entry);
        }
        Optional<StoredRun> stored = store.run(key.get());
        if (stored.isEmpty()) {
            // a pass that deleted it may have stopped before its index: that is taken out with the entry
            store.unlistIfAbsent(key.get());
            return dropStale(entry);
        }
        GraphRunRecord run = stored.get().run();
        if (!run.settledAtMs().equals(Optional.of(entry.atMs()))) {
            return dropStale(entry);
        }
        if (!definitionLoads(key.get(), run.definition())) {
            return Outcome.KEPT;
        }
        if (!store.expireRun(key.get(), stored.get().version(), entry)) {
            return Outcome.KEPT;
        }
        log.info("run expired graph={} partition={} settledAtMs={}", key.get().graph(), key.get().partition(),
                entry.atMs());
        return Outcome.REMOVED;
    }

    private boolean definitionLoads(RunKey key, String hash) {
        try {
            catalog.get(hash);
            return true;
        } catch (SwaleException.UnknownDefinition e) {
            log.warn("run kept past retention, its definition is absent graph={} partition={} definition={}",
                    key.graph(), key.partition(), hash);
        } catch (UnloadableDefinitionException e) {
            log.warn("run kept past retention, its definition does not load graph={} partition={} definition={} error={}",
                    key.graph(), key.partition(), hash, e.getMessage());
        }
        // any other failure (the store did not answer) is the pass's error to report, not a definition's fault
        return false;
    }

    private static Report done(Report report) {
        if (report.error().isPresent()) {
            log.warn("retention pass kept what it could not expire runs={} requests={} stale={} error={}",
                    report.runs(), report.requests(), report.stale(), report.error().get());
        } else if (report.runs() + report.requests() + report.stale() > 0) {
            log.info("retention pass runs={} requests={} stale={}", report.runs(), report.requests(), report.stale());
        }
        return report;
    }
}
