package io.swale.kafka;

/**
 * Topic and consumer group names, all under one configurable prefix so several installations can share a
 * cluster: they share no topic and no group, so one's members never rebalance another's.
 */
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

    /** The scheduler's group on the events topic. */
    public String schedulerGroup() {
        return groupPrefix() + "scheduler";
    }

    /** The scheduler's group on the triggers topic. */
    public String triggersGroup() {
        return groupPrefix() + "scheduler-triggers";
    }

    /** The consumer group of a pool's workers: one per pool. */
    public String poolGroup(String pool) {
        return groupPrefix() + "pool-" + pool;
    }

    /** The default topic prefix, whose groups keep the names of the builds before groups followed the prefix. */
    public static final String DEFAULT_PREFIX = "swale.";

    private String groupPrefix() {
        return prefix.equals(DEFAULT_PREFIX) ? "swale-" : prefix;
    }

    public static String deadLetter(String topic) {
        return topic + ".DLT";
    }
}
