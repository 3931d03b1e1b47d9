package io.swale.api.dashboard;

import io.swale.api.ApiErrors;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.readiness.NodeState;
import io.swale.readiness.Readiness;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.run.DefinitionCatalog;
import io.swale.run.RunRecords;
import io.swale.store.AttemptRecord;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The Gantt timeline of one run: per node, bars for the wait in the queue before its first attempt, each
 * attempt's run time (with its outcome, so a retry shows), and the wait between attempts (retry backoff
 * and queue again). Read from the stored instances and their attempt histories; nothing extra is recorded.
 */
@Component
public class RunTimeline {
    private final RunStore runs;
    private final TaskStore tasks;
    private final DefinitionCatalog catalog;

    public RunTimeline(RunStore runs, TaskStore tasks, DefinitionCatalog catalog) {
        this.runs = runs;
        this.tasks = tasks;
        this.catalog = catalog;
    }

    /** One bar: {@code queue}, {@code run} or {@code wait}; an open bar ({@code toMs} empty) goes on now. */
    record Bar(String kind, String runId, long attempt, long fromMs, Optional<Long> toMs, String outcome,
            Optional<String> error) {
        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", kind);
            m.put("runId", runId);
            m.put("attempt", attempt);
            m.put("from", fromMs);
            m.put("to", toMs.orElse(null));
            m.put("outcome", outcome);
            m.put("error", error.orElse(null));
            return m;
        }
    }

    public Map<String, Object> timeline(String graph, Partition partition) {
        RunKey key = new RunKey(graph, partition);
        RunView v = runs.read(key).orElseThrow(() -> new ApiErrors.NotFound(
                "graph `" + graph + "` does not have a run for partition `" + partition + "`"));
        GraphRunRecord run = v.run();
        Graph g = io.swale.run.RunGraphs.of(catalog.get(run.definition()), v);
        Map<String, NodeRecord> records = RunRecords.byNode(g, v);
        Map<String, NodeState> states = Readiness.nodeStates(g, Readiness.currentRecords(run, records));
        Map<String, List<AttemptRecord>> histories = tasks.histories(key);
        long now = runs.nowMs();

        List<Map<String, Object>> nodes = new ArrayList<>();
        long first = run.requestedAtMs();
        long last = run.settledAtMs().orElse(now);
        for (Node n : g.nodes()) {
            long ready = readyAt(g, n, records, run);
            List<Bar> bars = new ArrayList<>();
            List<TaskInstance> instances = v.instances().values().stream().filter(i -> i.node().equals(n.name()))
                    .sorted(Comparator.comparingLong(TaskInstance::rerun)).toList();
            for (TaskInstance i : instances) {
                bars.addAll(bars(i, histories.getOrDefault(i.runId(), List.of()), ready));
            }
            long attempts = bars.stream().filter(b -> b.kind().equals("run")).count();
            boolean retried = bars.stream().anyMatch(b -> b.kind().equals("run") && b.outcome().equals("retry"));
            for (Bar b : bars) {
                first = Math.min(first, b.fromMs());
                last = Math.max(last, b.toMs().orElse(now));
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", n.name());
            m.put("state", states.get(n.name()).wireName());
            m.put("pool", n.pool());
            m.put("attempts", attempts);
            m.put("retried", retried);
            m.put("bars", bars.stream().map(Bar::toJson).toList());
            nodes.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("graph", graph);
        out.put("partition", partition.key());
        out.put("state", run.state().wireName());
        out.put("requestedAt", run.requestedAtMs());
        out.put("settledAt", run.settledAtMs().orElse(null));
        out.put("now", now);
        out.put("from", first);
        out.put("to", last);
        out.put("nodes", nodes);
        return out;
    }

    /** When a node's first instance could start: when its last upstream terminated, else when the run began. */
    private static long readyAt(Graph g, Node n, Map<String, NodeRecord> records, GraphRunRecord run) {
        long ready = run.requestedAtMs();
        for (String up : g.upstreams(n.name())) {
            NodeRecord r = records.get(up);
            if (r != null) {
                ready = Math.max(ready, r.terminatedAtMs());
            }
        }
        return ready;
    }

    /**
     * The bars of one instance. The first wait starts when the node became ready (r0) or when the instance was
     * dispatched (a rerun, whose first dispatch is known only while it has not been dispatched again).
     */
    static List<Bar> bars(TaskInstance i, List<AttemptRecord> history, long readyMs) {
        List<AttemptRecord> ended = history.stream().sorted(Comparator.comparingLong(AttemptRecord::startedMs)).toList();
        List<Bar> out = new ArrayList<>();
        Optional<Long> waitFrom = i.rerun() == 0 ? Optional.of(readyMs)
                : ended.size() <= 1 ? Optional.of(i.dispatchedMs()) : Optional.empty();
        boolean firstWait = true;
        for (AttemptRecord a : ended) {
            if (waitFrom.isPresent() && a.startedMs() > waitFrom.get()) {
                out.add(new Bar(firstWait ? "queue" : "wait", i.runId(), a.attempt(), waitFrom.get(),
                        Optional.of(a.startedMs()), firstWait ? "queued" : "waiting", Optional.empty()));
            }
            firstWait = false;
            out.add(new Bar("run", i.runId(), a.attempt(), a.startedMs(), Optional.of(a.endedMs()), a.outcome(), a.error()));
            waitFrom = Optional.of(a.endedMs());
        }
        String kind = firstWait ? "queue" : "wait";
        switch (i.status()) {
            case RUNNING, CANCELLING -> {
                long started = i.startedMs().orElse(waitFrom.orElse(i.dispatchedMs()));
                if (waitFrom.isPresent() && started > waitFrom.get()) {
                    out.add(new Bar(kind, i.runId(), i.attempt(), waitFrom.get(), Optional.of(started),
                            firstWait ? "queued" : "waiting", Optional.empty()));
                }
                out.add(new Bar("run", i.runId(), i.attempt(), started, Optional.empty(), i.status().wireName(),
                        Optional.empty()));
            }
            case PENDING, WAITING -> out.add(new Bar(kind, i.runId(), i.attempt() + 1,
                    waitFrom.orElse(i.dispatchedMs()), Optional.empty(), i.status().wireName(), Optional.empty()));
            default -> { }
        }
        return out;
    }
}
