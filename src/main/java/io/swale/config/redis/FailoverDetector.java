package io.swale.config.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Compares each {@link PrimarySnapshot} with the last one: a part of the key space whose primary has another
 * address or run_id (a promoted replica, a restarted server, a moved slot range) is a failover. The first
 * snapshot is the baseline; a probe that failed is simply not observed, so an outage followed by the same primary
 * is no failover and one followed by a new primary is. Not thread-safe: one watcher thread drives it.
 */
public final class FailoverDetector {
    private PrimarySnapshot last;

    /**
     * A detected failover.
     *
     * @param before the primaries before
     * @param after the primaries now
     * @param changes one line per part whose primary changed
     */
    public record Failover(PrimarySnapshot before, PrimarySnapshot after, List<String> changes) {
        public Failover {
            changes = List.copyOf(changes);
        }
    }

    public Optional<Failover> observe(PrimarySnapshot now) {
        PrimarySnapshot before = last;
        last = now;
        if (before == null) {
            return Optional.empty();
        }
        List<String> changes = new ArrayList<>();
        var parts = new TreeSet<>(before.primaries().keySet());
        parts.addAll(now.primaries().keySet());
        for (String part : parts) {
            var was = before.primaries().get(part);
            var is = now.primaries().get(part);
            if (was == null || is == null || !was.equals(is)) {
                changes.add(part + ": " + (was == null ? "none" : was) + " -> " + (is == null ? "none" : is));
            }
        }
        return changes.isEmpty() ? Optional.empty() : Optional.of(new Failover(before, now, changes));
    }

    public Optional<PrimarySnapshot> last() {
        return Optional.ofNullable(last);
    }
}
