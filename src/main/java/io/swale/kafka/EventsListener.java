package io.swale.kafka;

import io.swale.graph.Partition;
import io.swale.logging.LogContext;
import io.swale.record.RecordCodec;
import io.swale.scheduler.GraphRuns;
import io.swale.scheduler.SwaleException;
import io.swale.store.RunKey;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** Handles task-terminated events: advance the downstreams of the node (spec §7.6). */
public final class EventsListener {
    private final GraphRuns graphRuns;

    public EventsListener(GraphRuns graphRuns) {
        this.graphRuns = graphRuns;
    }

    public void onEvent(ConsumerRecord<String, byte[]> record) {
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
        RunKey key = new RunKey(event.get("graph").asString(), Partition.of(event.get("partition").asString()));
        try (LogContext ignored = LogContext.of(key.graph(), key.partition().key(), event.get("node").asString(), null)) {
            graphRuns.onTaskTerminated(key, event.get("node").asString());
        }
    }
}
