package io.swale.trigger;

import io.swale.definition.Definition;
import io.swale.graph.Partition;
import io.swale.record.GraphRecord;
import io.swale.run.DefinitionCatalog;
import io.swale.run.GraphRuns;
import io.swale.store.DefinitionStore;
import io.swale.task.SwaleException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles a trigger (spec §4.6): the graph record's definition at handling time decides the partition and
 * the run, so an edit applies from the next firing. Starting is create-only, so a repeated trigger is a no-op.
 */
public final class TriggerHandler {
    private static final Logger log = LoggerFactory.getLogger(TriggerHandler.class);

    private final DefinitionStore store;
    private final DefinitionCatalog catalog;
    private final GraphRuns graphRuns;
    private final int maxPartitions;

    /** @param maxPartitions most partitions one start lists, as a start request through the API */
    public TriggerHandler(DefinitionStore store, DefinitionCatalog catalog, GraphRuns graphRuns, int maxPartitions) {
        this.store = store;
        this.catalog = catalog;
        this.graphRuns = graphRuns;
        this.maxPartitions = maxPartitions;
    }

    /** Returns the partitions actually started. */
    public List<Partition> handle(Trigger trigger) {
        List<Partition> started = switch (trigger) {
            case Trigger.Start s -> graphRuns.startRuns(s.graph(), bounded(s));
            case Trigger.AtTime t -> startAt(t.graph(), Optional.of(t.timeMs()));
            case Trigger.CronFiring c -> startAt(c.graph(), c.previousFireMs());
        };
        log.info("trigger handled graph={} form={} started={}", trigger.graph(), trigger.getClass().getSimpleName(),
                started);
        return started;
    }

    private List<Partition> bounded(Trigger.Start s) {
        if (s.partitions().size() > maxPartitions) {
            // one listener call would start them all, holding its partition of the topic meanwhile
            throw new SwaleException.Malformed("a start trigger lists " + s.partitions().size()
                    + " partitions, at most " + maxPartitions + " (swale.limits.start-partitions): send it in parts");
        }
        return s.partitions();
    }

    private List<Partition> startAt(String graph, Optional<Long> timeMs) {
        GraphRecord record = store.graphRecord(graph).orElseThrow(() -> new SwaleException.UnknownGraph(graph));
        Definition definition = catalog.get(record.definition());
        Partition partition = timeMs.flatMap(definition.graph().partitioning()::ofTime)
                .orElseThrow(() -> new SwaleException.NoPartition(graph));
        return graphRuns.startRun(record.definition(), partition).started() ? List.of(partition) : List.of();
    }
}
