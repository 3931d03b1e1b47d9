package io.swale.store.redis;

import io.swale.store.RunKey;

/** Key spelling. Every key of one graph run carries the hash tag {graph/partition}. */
public final class RedisKeys {
    private final String prefix;

    public RedisKeys(String prefix) {
        this.prefix = prefix;
    }

    String definition(String hash) {
        return prefix + ":def:" + hash;
    }

    String currentPointers() {
        return prefix + ":current";
    }

    String graphRecords() {
        return prefix + ":graphs";
    }

    String refusals() {
        return prefix + ":refusals";
    }

    String runsOfGraph(String graph) {
        return prefix + ":runs:" + graph;
    }

    String graphsWithRuns() {
        return prefix + ":rungraphs";
    }

    String activeRuns() {
        return prefix + ":active";
    }

    String delayed() {
        return prefix + ":delayed";
    }

    String expiry() {
        return prefix + ":expiry";
    }

    /** Watermark per schedule (graph), never expired. */
    String watermarks() {
        return prefix + ":watermarks";
    }

    String request(String id) {
        return prefix + ":req:" + id;
    }

    /** The expiry entry of a request record. */
    static String requestExpiryMember(String id) {
        return "req:" + id;
    }

    String run(RunKey key) {
        return prefix + ":run:{" + key.id() + "}";
    }

    String nodeRecords(RunKey key) {
        return prefix + ":nodes:{" + key.id() + "}";
    }

    String instances(RunKey key) {
        return prefix + ":ti:{" + key.id() + "}";
    }

    String attempts(RunKey key) {
        return prefix + ":att:{" + key.id() + "}";
    }

    String inputs(RunKey key) {
        return prefix + ":in:{" + key.id() + "}";
    }
}
