package io.swale.trigger;

import io.swale.graph.Partition;
import io.swale.record.RecordCodec;
import io.swale.task.SwaleException;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** Reads a trigger message; anything that is not one of the three forms is {@code Malformed} (permanent). */
public final class TriggerMessages {
    private static final Set<String> START_KEYS = Set.of("graph", "partitions");
    private static final Set<String> TIME_KEYS = Set.of("graph", "time");

    static final int SHOWN_CHARS = 64;
    static final int SHOWN_KEYS = 8;

    private TriggerMessages() {}

    /**
     * @param value the record value; null or empty for a cron firing
     * @param header the last value of a header, as text
     */
    public static Trigger parse(byte[] value, Function<String, Optional<String>> header) {
        if (value == null || value.length == 0) {
            return cronFiring(header);
        }
        JsonNode doc;
        try {
            doc = RecordCodec.JSON.readTree(value);
        } catch (JacksonException e) {
            throw new SwaleException.Malformed("trigger is not JSON: " + shown(e.getOriginalMessage()));
        }
        if (doc == null || !doc.isObject()) {
            throw new SwaleException.Malformed("trigger is not a JSON object");
        }
        if (!doc.path("graph").isString() || doc.get("graph").asString().isEmpty()) {
            throw new SwaleException.Malformed("trigger has no `graph` string");
        }
        String graph = doc.get("graph").asString();
        Set<String> keys = new TreeSet<>();
        doc.properties().forEach(e -> keys.add(e.getKey()));
        if (keys.equals(START_KEYS)) {
            return new Trigger.Start(graph, partitions(doc.get("partitions")));
        }
        if (keys.equals(TIME_KEYS)) {
            return new Trigger.AtTime(graph, time(doc.get("time")));
        }
        throw new SwaleException.Malformed("trigger for graph `" + shown(graph) + "` must have exactly the keys "
                + "`graph` and `partitions`, or `graph` and `time`; it has " + shown(keys));
    }

    private static Trigger cronFiring(Function<String, Optional<String>> header) {
        String graph = header.apply(TriggerHeaders.GRAPH).filter(g -> !g.isEmpty()).orElseThrow(() ->
                new SwaleException.Malformed("cron trigger without a `" + TriggerHeaders.GRAPH + "` header"));
        return new Trigger.CronFiring(graph, header.apply(TriggerHeaders.FIRE_MS).flatMap(TriggerMessages::unsigned),
                header.apply(TriggerHeaders.PREVIOUS_FIRE_MS).flatMap(TriggerMessages::unsigned));
    }

    /**
     * Text from the message as an error shows it: the first {@value #SHOWN_CHARS} characters and the full
     * length. A refusal's text goes into the dead letter's headers, which must not grow with the input.
     */
    static String shown(String text) {
        return text.length() <= SHOWN_CHARS ? text
                : text.substring(0, SHOWN_CHARS) + "… (" + text.length() + " characters)";
    }

    /** Keys as an error shows them: a few, each {@link #shown(String)}. */
    static String shown(Set<String> keys) {
        List<String> out = keys.stream().limit(SHOWN_KEYS).map(TriggerMessages::shown).toList();
        return out + (keys.size() > SHOWN_KEYS ? " and " + (keys.size() - SHOWN_KEYS) + " more" : "");
    }

    /** An unsigned decimal integer of ms; empty when it is not one (or exceeds a signed 64-bit value). */
    static Optional<Long> unsigned(String text) {
        if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static List<Partition> partitions(JsonNode node) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw new SwaleException.Malformed("`partitions` must be a non-empty array of partition keys");
        }
        List<Partition> out = new ArrayList<>();
        for (JsonNode p : node) {
            if (!p.isString() || !Partition.isValid(p.asString())) {
                throw new SwaleException.Malformed("invalid partition key " + shown(p.toString())
                        + ": a partition key is 1 to 16 characters of [A-Za-z0-9_]");
            }
            out.add(Partition.of(p.asString()));
        }
        return out;
    }

    private static long time(JsonNode node) {
        if (node == null || !node.isString()) {
            throw new SwaleException.Malformed("`time` must be an RFC 3339 string such as 2026-09-15T02:00:00Z");
        }
        try {
            return OffsetDateTime.parse(node.asString()).toInstant().toEpochMilli();
        } catch (DateTimeException | ArithmeticException e) {
            throw new SwaleException.Malformed("`time` `" + shown(node.asString()) + "` is not an RFC 3339 time: "
                    + shown(e.getMessage()));
        }
    }
}
