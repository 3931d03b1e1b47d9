package io.swale.store.redis;

import io.swale.record.RecordCodec;
import io.swale.record.RecordException;
import io.swale.store.InstanceStatus;
import io.swale.store.PendingInstance;
import io.swale.store.TaskInstance;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.node.ObjectNode;

/** The small JSON document the Redis scripts keep per task instance. */
final class InstanceCodec {
    private InstanceCodec() {}

    /**
     * A new pending instance; the submit script stamps the dispatch time. {@code ready_us}, when known, is a
     * decimal string because the scripts' cjson keeps only 14 significant digits of a number; the scripts add
     * {@code submitted_us}, {@code started_us} and {@code ended_us} the same way, and the latency metrics and
     * the bench read these stamps.
     */
    static String pending(PendingInstance p) {
        ObjectNode o = RecordCodec.JSON.createObjectNode();
        o.put("state", InstanceStatus.PENDING.wireName());
        o.put("node", p.node());
        p.asset().ifPresent(a -> o.put("asset", a));
        o.put("definition", p.definition());
        o.put("rerun", p.rerun());
        o.put("pool", p.pool());
        o.put("step", 0);
        o.put("attempt", 0);
        o.put("max", p.maxAttempts());
        o.put("token", 0);
        p.readyUs().ifPresent(us -> o.put("ready_us", Long.toString(us)));
        return RecordCodec.text(o);
    }

    /** Lenient as the scripts write it: a missing number is 0 (max 1), a missing text empty. */
    static TaskInstance decode(String runId, String json) {
        return decode(runId, fields -> StoredObject.read("instance " + runId, json, fields));
    }

    /** As {@link #decode(String, String)}, from the UTF-8 bytes Redis sent. */
    static TaskInstance decode(String runId, byte[] utf8) {
        return decode(runId, fields -> StoredObject.read("instance " + runId, utf8, fields));
    }

    private static TaskInstance decode(String runId, Consumer<StoredObject.Fields> read) {
        Fields f = new Fields();
        read.accept((name, p) -> {
            switch (name) {
                case "state" -> f.state = p.getValueAsString("");
                case "node" -> f.node = p.getValueAsString("");
                case "asset" -> f.asset = p.getValueAsString();
                case "definition" -> f.definition = p.getValueAsString("");
                case "rerun" -> f.rerun = p.getValueAsLong(0);
                case "pool" -> f.pool = p.getValueAsString("");
                case "step" -> f.step = p.getValueAsLong(0);
                case "attempt" -> f.attempt = p.getValueAsLong(0);
                case "max" -> f.max = p.getValueAsLong(1);
                case "token" -> f.token = p.getValueAsLong(0);
                case "lease" -> f.lease = number(p);
                case "due" -> f.due = number(p);
                case "dispatched" -> f.dispatched = p.getValueAsLong(0);
                case "started" -> f.started = number(p);
                case "err" -> f.err = p.getValueAsString();
                case "worker" -> f.worker = p.getValueAsString();
                case "ended" -> f.ended = number(p);
                case "dead_letter" -> f.deadLetter = p.getValueAsString();
                default -> { }
            }
        });
        String state = f.state;
        InstanceStatus status = InstanceStatus.fromWireName(state)
                .orElseThrow(() -> new RecordException("instance " + runId, "unknown state `" + state + "`"));
        return new TaskInstance(runId, status, f.node, Optional.ofNullable(f.asset), f.definition, f.rerun, f.pool,
                f.step, f.attempt, f.max, f.token, f.lease, f.due, f.dispatched, f.started, Optional.ofNullable(f.err),
                Optional.ofNullable(f.worker), f.ended, Optional.ofNullable(f.deadLetter));
    }

    private static Optional<Long> number(JsonParser p) {
        return p.currentToken().isNumeric() ? Optional.of(p.getValueAsLong()) : Optional.empty();
    }

    /** An instance's fields as they are read, each at its value when absent. */
    private static final class Fields {
        String state = "";
        String node = "";
        String asset;
        String definition = "";
        long rerun;
        String pool = "";
        long step;
        long attempt;
        long max = 1;
        long token;
        Optional<Long> lease = Optional.empty();
        Optional<Long> due = Optional.empty();
        long dispatched;
        Optional<Long> started = Optional.empty();
        String err;
        String worker;
        Optional<Long> ended = Optional.empty();
        String deadLetter;
    }
}
