package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.logging.LogContext;
import io.swale.readiness.NodeState;
import io.swale.readiness.Readiness;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.RunState;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.task.SwaleMetrics;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settling graph runs (spec §7): whether a run with nothing left to submit has ended, and the settle steps of
 * one run or of all the runs of one poll, which go to Redis together.
 */
final class RunSettlement {
    private static final Logger log = LoggerFactory.getLogger(RunSettlement.class);

    private final RunStore runs;
    private final Clock clock;
    private final SwaleMetrics metrics;

    RunSettlement(RunStore runs, Clock clock, SwaleMetrics metrics) {
        this.runs = runs;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * The settle of a run that has nothing left to submit, as read in {@code view}; empty while a node can
     * still run or an instance is still active.
     */
    Optional<RunStore.Settle> of(RunView view, Graph graph, Map<String, NodeRecord> records,
            Map<String, NodeState> states) {
        Optional<RunState> settledState = Readiness.settledState(states);
        if (settledState.isEmpty()) {
            return Optional.empty();
        }
        GraphRunRecord run = view.run();
        List<String> unrecorded = new ArrayList<>();
        for (Node n : graph.nodes()) {
            if (n.isMapped()) {
                // a mapped node has no instance of its own: its items must all have ended
                if (MappedNodes.items(view, n.name()).stream().anyMatch(i -> i.status().isActive())) {
                    return Optional.empty();
                }
                continue;
            }
            Optional<String> runId = RunRecords.unrecordedRunId(view.key(), run, n.name(), records.get(n.name()));
            if (runId.isPresent() && RunRecords.isActive(view, runId.get())) {
                return Optional.empty();
            }
            // one the view has not: should it exist when the settle commits, it was submitted since this read
            runId.filter(id -> !view.instances().containsKey(id)).ifPresent(unrecorded::add);
        }
        SortedMap<String, Long> expected = new TreeMap<>(run.expectedReruns());
        expected.entrySet().removeIf(e -> {
            NodeRecord r = MappedReruns.expectedTarget(view, records, e.getKey());
            return r != null && r.rerun() >= e.getValue();
        });
        GraphRunRecord settled = run.withState(settledState.get(), Optional.of(clock.millis())).withExpectedReruns(expected);
        // atomic with the instances: a rerun that submitted one of them since the view was read wins
        return Optional.of(new RunStore.Settle(view.key(), view.version(), settled, unrecorded));
    }

    /**
     * Commits the settles, all in one round trip, and counts and logs the runs that settled; answers in the
     * order of {@code settles}. A store that does not answer throws.
     */
    List<RunStore.Settled> commit(List<RunStore.Settle> settles) {
        if (settles.isEmpty()) {
            return List.of();
        }
        List<RunStore.Settled> out = runs.settleEach(settles);
        for (int i = 0; i < settles.size(); i++) {
            if (out.get(i) instanceof RunStore.Settled.Done(boolean settled) && settled) {
                RunStore.Settle s = settles.get(i);
                String state = s.settled().state().wireName();
                metrics.runSettled(s.key().graph(), state);
                try (LogContext ignored = LogContext.run(s.key().graph(), s.key().partition().key())) {
                    log.info("settled graph={} partition={} state={}", s.key().graph(), s.key().partition(), state);
                }
            }
        }
        return out;
    }
}
