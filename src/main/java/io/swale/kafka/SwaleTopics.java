package io.swale.kafka;

/** Topic names, all under one configurable prefix so several installations can share a cluster. */
public record SwaleTopics(String prefix) {
    public String events() {
        return prefix + "events";
    }

    public String triggers() {
        return prefix + "triggers";
    }

    public String pool(String pool) {
        return prefix + "pool." + pool;
    }

    /** The consumer group of a pool's workers: one per pool, whatever the prefix, so lag reads find it. */
    public static String poolGroup(String pool) {
        return "swale-pool-" + pool;
    }

    public static String deadLetter(String topic) {
        return topic + ".DLT";
    }
}
