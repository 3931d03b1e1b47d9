package io.swale.run;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.logging.LogContext;
import io.swale.record.GraphRecord;
import io.swale.record.GraphRunRecord;
import io.swale.store.DefinitionStore;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import io.swale.task.SwaleException;
import io.swale.task.SwaleMetrics;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts graph runs (spec §7.2): creates each run (create-only) and submits its roots at rerun 0, the runs of
 * several partitions together.
 */
final class RunStarts {
    private static final Logger log = LoggerFactory.getLogger(RunStarts.class);

    private final DefinitionCatalog definitions;
    private final DefinitionStore definitionStore;
    private final RunStore runs;
    private final Submission submission;
    private final Clock clock;
    private final SwaleMetrics metrics;

    RunStarts(DefinitionCatalog definitions, DefinitionStore definitionStore, RunStore runs, Submission submission,
            Clock clock, SwaleMetrics metrics) {
        this.definitions = definitions;
        this.definitionStore = definitionStore;
        this.runs = runs;
        this.submission = submission;
        this.clock = clock;
        this.metrics = metrics;
    }

    GraphRuns.Started startRun(String hash, Partition partition) {
        return startEach(hash, List.of(partition)).getFirst();
    }

    /** Starts each partition with the graph record's definition; returns those actually started. */
    List<Partition> startRuns(String graph, List<Partition> partitions) {
        GraphRecord record = definitionStore.graphRecord(graph).orElseThrow(() -> new SwaleException.UnknownGraph(graph));
        List<Partition> started = new ArrayList<>();
        List<GraphRuns.Started> each = startEach(record.definition(), partitions);
        for (int i = 0; i < partitions.size(); i++) {
            if (each.get(i).started()) {
                started.add(partitions.get(i));
            }
        }
        return started;
    }

    /**
     * Which runs a create whose call failed made all the same: its reply can be lost after Redis applied it, and a
     * retry would then find the runs there and report nothing started. A run whose record is this start's (its
     * definition and its requested time) counts as created; when none is, {@code failure} is rethrown.
     */
    private List<Boolean> createdAnyway(List<RunStore.NewRun> news, RuntimeException failure) {
        List<Boolean> made = new ArrayList<>(news.size());
        try {
            for (RunStore.NewRun n : news) {
                made.add(runs.read(n.key()).map(RunView::run).filter(r -> r.definition().equals(n.run().definition())
                        && r.requestedAtMs() == n.run().requestedAtMs()).isPresent());
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
            throw failure;
        }
        if (!made.contains(true)) {
            throw failure;
        }
        log.warn("runs created although the create failed graph={} created={} of={} error={}", news.getFirst().key().graph(),
                made.stream().filter(b -> b).count(), news.size(), failure.toString());
        return made;
    }

    /**
     * Starts the runs of several partitions of one definition with one round trip for their indexes, one for
     * their records and one for the submissions of all their roots, where each run started alone pays all
     * three. A created run whose roots were not submitted (the submission failed, its reply was lost) is started
     * all the same: it is active, the reconciler submits them, and the answer says it started. Thrown, the start
     * would be answered as failed although it took effect, and its retry would find the runs created and report
     * nothing started.
     */
    private List<GraphRuns.Started> startEach(String hash, List<Partition> partitions) {
        Graph graph = definitions.get(hash).graph();
        // a root whose pool is not configured here is left to the reconciler, as any unsubmitted root is: the run
        // is created all the same (spec §7.2), and its other roots go to their workers
        Map<Boolean, List<Node>> configured = graph.roots().stream()
                .collect(java.util.stream.Collectors.partitioningBy(r -> submission.unknownPool(r).isEmpty()));
        List<Submission.Request> roots = configured.get(true).stream().map(root -> new Submission.Request(root, 0))
                .toList();
        Optional<SwaleException.UnknownPool> unknownPool = configured.get(false).stream().findFirst()
                .flatMap(submission::unknownPool);
        OptionalLong readyAt = GraphRuns.nowUs(clock);
        List<Submission.Batch> batches = partitions.stream()
                .map(p -> submission.prepare(graph, hash, p, roots, Map.of(), readyAt)).toList();
        long now = clock.millis();
        List<RunStore.NewRun> news = partitions.stream()
                .map(p -> new RunStore.NewRun(new RunKey(graph.name(), p), GraphRunRecord.started(hash, now))).toList();
        List<Boolean> created;
        try {
            created = runs.createEach(news);
        } catch (RuntimeException e) {
            created = createdAnyway(news, e);
        }
        List<Submission.Batch> sent = new ArrayList<>();
        for (int i = 0; i < partitions.size(); i++) {
            if (created.get(i)) {
                metrics.runStarted(graph.name());
                sent.add(batches.get(i));
            }
        }
        List<Submission.Submitted> answers;
        try {
            answers = submission.submitEach(sent);
        } catch (RuntimeException e) {
            answers = sent.stream().<Submission.Submitted>map(b -> new Submission.Submitted.Failed(e)).toList();
        }
        List<GraphRuns.Started> out = new ArrayList<>(partitions.size());
        int next = 0;
        for (int i = 0; i < partitions.size(); i++) {
            if (!created.get(i)) {
                out.add(new GraphRuns.Started(false, List.of()));
                continue;
            }
            Partition partition = partitions.get(i);
            try (LogContext ignored = LogContext.run(graph.name(), partition.key())) {
                switch (answers.get(next++)) {
                    case Submission.Submitted.Done d -> {
                        List<String> submitted = d.results().stream().map(Submission.Result::runId).toList();
                        log.info("started graph={} partition={} definition={} roots={}", graph.name(), partition,
                                hash, submitted.size());
                        // the start took effect, so its answer says so (thrown, it would be retried as a start
                        // that is done); the reconciler submits the root once its pool is configured
                        unknownPool.ifPresent(e -> log.warn("started graph={} partition={} definition={} but a root "
                                + "waits for its pool: {}", graph.name(), partition, hash, e.getMessage()));
                        out.add(new GraphRuns.Started(true, submitted));
                    }
                    case Submission.Submitted.Failed f -> {
                        log.warn("started graph={} partition={} definition={} but its roots were not submitted, "
                                + "left to the reconciler: {}", graph.name(), partition, hash, f.error().toString());
                        out.add(new GraphRuns.Started(true, List.of()));
                    }
                }
            }
        }
        return out;
    }

}
