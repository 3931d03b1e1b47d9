package io.swale.api.dashboard;

import io.swale.store.InstanceStatus;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What runs now, derived from stored task instances alone, and the edges between two derivations. No
 * list of running work is kept anywhere: the set is recomputed from the runs' instances each time.
 */
public final class RunningNow {
    private RunningNow() {}

    /** A change between two derivations. */
    public record Transitions(List<RunningInstance> started, List<RunningInstance> changed, List<Cleared> cleared) {
        public boolean isEmpty() {
            return started.isEmpty() && changed.isEmpty() && cleared.isEmpty();
        }
    }

    /**
     * An instance that no longer runs.
     *
     * @param outcome what its run id is now: {@code succeeded}, {@code failed}, {@code cancelled}, {@code waiting}
     *     (a retry is due later), {@code pending} (dispatched again), {@code running} (claimed again: a new
     *     attempt), or {@code gone} when the instance is no longer stored
     */
    public record Cleared(RunningInstance instance, String outcome) {}

    /** Running and cancelling instances of the given runs, keyed by claim, oldest start first. */
    public static Map<String, RunningInstance> derive(Collection<RunView> views) {
        List<RunningInstance> all = new ArrayList<>();
        for (RunView v : views) {
            for (TaskInstance i : v.instances().values()) {
                if (i.status().holdsLease()) {
                    all.add(new RunningInstance(i.runId(), i.token(), v.key().graph(), v.key().partition().key(),
                            i.node(), i.pool(), i.status().wireName(), i.attempt(), i.maxAttempts(), i.startedMs()));
                }
            }
        }
        all.sort(Comparator.comparing((RunningInstance r) -> r.startedMs().orElse(Long.MAX_VALUE))
                .thenComparing(RunningInstance::key));
        Map<String, RunningInstance> out = new LinkedHashMap<>();
        for (RunningInstance r : all) {
            out.put(r.key(), r);
        }
        return out;
    }

    /** The edges from {@code before} to {@code after}; {@code views} tell what a cleared instance became. */
    public static Transitions diff(Map<String, RunningInstance> before, Map<String, RunningInstance> after,
            Collection<RunView> views) {
        List<RunningInstance> started = new ArrayList<>();
        List<RunningInstance> changed = new ArrayList<>();
        List<Cleared> cleared = new ArrayList<>();
        for (RunningInstance was : before.values()) {
            RunningInstance now = after.get(was.key());
            if (now == null) {
                cleared.add(new Cleared(was, outcome(was.runId(), views)));
            } else if (!now.equals(was)) {
                changed.add(now);
            }
        }
        for (RunningInstance now : after.values()) {
            if (!before.containsKey(now.key())) {
                started.add(now);
            }
        }
        return new Transitions(started, changed, cleared);
    }

    private static String outcome(String runId, Collection<RunView> views) {
        for (RunView v : views) {
            TaskInstance i = v.instances().get(runId);
            if (i != null) {
                return i.status() == InstanceStatus.CANCELLING ? InstanceStatus.RUNNING.wireName() : i.status().wireName();
            }
        }
        return "gone";
    }
}
