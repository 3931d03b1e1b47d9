package io.swale.record;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON shape of an admin request and of its outcome (spec §5.5), keys in the spec's order: the HTTP
 * answers show them and the stored request record embeds them.
 */
public final class RequestJson {
    private RequestJson() {}

    public static ObjectNode request(AdminRequest request) {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        switch (request) {
            case AdminRequest.Start s -> {
                o.put("kind", "start");
                o.put("graph", s.graph());
                ArrayNode a = o.putArray("partitions");
                s.partitions().forEach(p -> a.add(p.key()));
            }
            case AdminRequest.Rerun r -> {
                o.put("kind", "rerun");
                o.put("graph", r.graph());
                o.put("partition", r.partition().key());
                o.put("node", r.node());
            }
            case AdminRequest.Cancel c -> {
                o.put("kind", "cancel");
                o.put("graph", c.graph());
                o.put("partition", c.partition().key());
            }
        }
        return o;
    }

    public static ObjectNode outcome(RequestOutcome outcome) {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        switch (outcome) {
            case RequestOutcome.Started s -> {
                o.put("kind", "started");
                ArrayNode a = o.putArray("partitions");
                s.partitions().forEach(p -> a.add(p.key()));
            }
            case RequestOutcome.Rerun r -> {
                o.put("kind", "rerun");
                o.put("run_id", r.runId());
            }
            case RequestOutcome.Cancelled c -> o.put("kind", "cancelled");
            case RequestOutcome.Refused r -> {
                o.put("kind", "refused");
                o.put("reason", r.reason());
            }
        }
        return o;
    }
}
