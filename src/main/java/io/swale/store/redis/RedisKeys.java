package io.swale.store.redis;

import io.swale.store.RunKey;

/** Key spelling. Every key of one graph run carries the hash tag {graph/partition}. */
public final class RedisKeys {
    private final String prefix;

    public RedisKeys(String prefix) {
        this.prefix = prefix;
    }

    public String definition(String hash) {
        return prefix + ":def:" + hash;
    }

    public String currentPointers() {
        return prefix + ":current";
    }

    public String graphRecords() {
        return prefix + ":graphs";
    }

    /** A capped list of a graph's publishes, adoptions and refusals, newest first. */
    public String definitionHistory(String graph) {
        return prefix + ":defhist:" + graph;
    }

    public String refusals() {
        return prefix + ":refusals";
    }

    public String runsOfGraph(String graph) {
        return prefix + ":runs:" + graph;
    }

    public String graphsWithRuns() {
        return prefix + ":rungraphs";
    }

    public String activeRuns() {
        return prefix + ":active";
    }

    /** The last repair failure of each run, by run id ({@code graph/partition}). */
    public String repairErrors() {
        return prefix + ":repairerr";
    }

    public String delayed() {
        return prefix + ":delayed";
    }

    public String expiry() {
        return prefix + ":expiry";
    }

    /** Watermark per schedule (graph), never expired. */
    public String watermarks() {
        return prefix + ":watermarks";
    }

    public String request(String id) {
        return prefix + ":req:" + id;
    }

    /** The expiry entry of a request record. */
    static String requestExpiryMember(String id) {
        return "req:" + id;
    }

    public String run(RunKey key) {
        return prefix + ":run:{" + key.id() + "}";
    }

    public String nodeRecords(RunKey key) {
        return prefix + ":nodes:{" + key.id() + "}";
    }

    public String instances(RunKey key) {
        return prefix + ":ti:{" + key.id() + "}";
    }

    public String attempts(RunKey key) {
        return prefix + ":att:{" + key.id() + "}";
    }

    public String inputs(RunKey key) {
        return prefix + ":in:{" + key.id() + "}";
    }
}
