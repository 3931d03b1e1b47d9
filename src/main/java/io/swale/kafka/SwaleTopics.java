package io.swale.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

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

    /** A queue Swale consumes, named as the API and the CLI name it: {@code events}, {@code triggers}, {@code pool.<pool>}. */
    public record Queue(String name, KafkaInspector.Channel channel) {
        private static final String POOL = "pool.";

        /** The pool whose dispatches this queue holds, if it is a pool's. */
        public Optional<String> pool() {
            return name.startsWith(POOL) ? Optional.of(name.substring(POOL.length())) : Optional.empty();
        }
    }

    /** Every queue Swale consumes, in the order the API lists them: the events, the triggers, then each pool's. */
    public List<Queue> queues(Collection<String> pools) {
        List<Queue> out = new ArrayList<>(pools.size() + 2);
        out.add(new Queue("events", new KafkaInspector.Channel(events(), schedulerGroup())));
        out.add(new Queue("triggers", new KafkaInspector.Channel(triggers(), triggersGroup())));
        pools.forEach(p -> out.add(new Queue(Queue.POOL + p, poolChannel(p))));
        return out;
    }

    /** A pool's dispatch topic and its workers' group. */
    public KafkaInspector.Channel poolChannel(String pool) {
        return new KafkaInspector.Channel(pool(pool), poolGroup(pool));
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
