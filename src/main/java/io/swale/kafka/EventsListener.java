package io.swale.kafka;

import io.swale.graph.Partition;
import io.swale.logging.LogContext;
import io.swale.record.NodeStatus;
import io.swale.record.RecordCodec;
import io.swale.run.GraphRuns;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.task.SwaleException;
import io.swale.task.TaskStep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Handles task-terminated events: advance the downstreams of the node (spec §7.6). The events of one poll
 * are coalesced by graph run, so a run whose nodes end faster than the scheduler reads it is read once per
 * poll rather than once per event; the runs of one poll are read together in one round trip before any is
 * advanced, and their submissions sent together in another; one event at a time behaves exactly as before.
 */
public final class EventsListener {
    private final GraphRuns graphRuns;

    public EventsListener(GraphRuns graphRuns) {
        this.graphRuns = graphRuns;
    }

    public void onEvent(ConsumerRecord<String, byte[]> record) {
        Event e = parse(record);
        TaskStep.reached(TaskStep.Kind.EVENT_RECEIVED, e.key().graph(), e.key().partition().key(), e.node());
        try (LogContext ignored = LogContext.of(e.key().graph(), e.key().partition().key(), e.node(), null)) {
            graphRuns.onTaskTerminated(e.key(), e.node());
        }
    }

    /**
     * The events of one poll, in order of each run's first event. A failure names the first record of its
     * run for the error handler: the records before it are done, it is retried or dead-lettered, the rest
     * come again (advancing is idempotent).
     */
    public void onEvents(List<ConsumerRecord<String, byte[]>> records) {
        Map<RunKey, Group> groups = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            Event e;
            try {
                e = parse(record);
            } catch (SwaleException malformed) {
                advance(groups);
                throw FailedEvent.at(record, malformed);
            }
            TaskStep.reached(TaskStep.Kind.EVENT_RECEIVED, e.key().graph(), e.key().partition().key(), e.node());
            groups.computeIfAbsent(e.key(), k -> new Group(record, new LinkedHashSet<>())).nodes().add(e.node());
        }
        advance(groups);
    }

    private void advance(Map<RunKey, Group> groups) {
        if (groups.isEmpty()) {
            return;
        }
        Map<RunKey, RunStore.Read> read;
        try {
            read = graphRuns.readRuns(List.copyOf(groups.keySet()));
        } catch (RuntimeException e) {
            // nothing of this poll is done yet: its first run's first record is retried, the rest come again
            throw FailedEvent.at(groups.values().iterator().next().first(), e);
        }
        groups.forEach((key, g) -> g.nodes().forEach(
                n -> TaskStep.reached(TaskStep.Kind.RUN_READ, key.graph(), key.partition().key(), n)));
        List<GraphRuns.Ended> ended = new ArrayList<>(groups.size());
        List<Group> order = new ArrayList<>(groups.size());
        groups.forEach((key, g) -> {
            ended.add(new GraphRuns.Ended(key, List.copyOf(g.nodes())));
            order.add(g);
        });
        List<Optional<RuntimeException>> failures;
        try {
            failures = graphRuns.onTasksTerminated(ended, read);
        } catch (RuntimeException e) {
            // the submissions got no answer, so none of them was dispatched: the whole poll comes again
            throw FailedEvent.at(order.getFirst().first(), e);
        }
        // every run went as far as it could; the first that failed is retried, the runs after it come again
        for (int i = 0; i < failures.size(); i++) {
            if (failures.get(i).isPresent()) {
                RuntimeException e = failures.get(i).get();
                throw FailedEvent.at(order.get(i).first(), e);
            }
        }
        groups.clear();
    }

    record Event(RunKey key, String node) {}

    private record Group(ConsumerRecord<String, byte[]> first, Set<String> nodes) {}

    /** A task-terminated event (spec §5.6); anything else is permanent (§7.6): the status too must be one. */
    static Event parse(ConsumerRecord<String, byte[]> record) {
        JsonNode event;
        try {
            event = record.value() == null ? null : RecordCodec.JSON.readTree(record.value());
        } catch (JacksonException e) {
            throw new SwaleException.Malformed("event is not JSON: " + e.getOriginalMessage());
        }
        if (event == null || !event.isObject() || !event.path("graph").isString() || !event.path("node").isString()
                || !event.path("partition").isString() || !Partition.isValid(event.path("partition").asString())) {
            throw new SwaleException.Malformed("not a task-terminated event");
        }
        if (!event.path("status").isString() || NodeStatus.fromWireName(event.path("status").asString()).isEmpty()) {
            throw new SwaleException.Malformed("not a task-terminated event: `status` is none of succeeded, failed,"
                    + " cancelled");
        }
        return new Event(new RunKey(event.get("graph").asString(), Partition.of(event.get("partition").asString())),
                event.get("node").asString());
    }
}
