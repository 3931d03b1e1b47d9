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

    // the default prefix `swale.` keeps the group names Swale always had: swale-scheduler, swale-pool-<pool>
    private String groupPrefix() {
        return prefix.endsWith(".") ? prefix.substring(0, prefix.length() - 1) + "-" : prefix;
    }

    public static String deadLetter(String topic) {
        return topic + ".DLT";
    }
}
