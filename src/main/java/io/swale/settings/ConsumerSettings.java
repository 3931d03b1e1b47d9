package io.swale.settings;

import static io.swale.settings.PropertyChecks.positive;
import static io.swale.settings.PropertyChecks.present;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.kafka.consumer.*}: how fast a consumer group notices a dead member and hands its partitions on
 * (docs/operations.md, "Recovery after a crash"). Every listener of a replica (events, triggers, pools) uses them.
 *
 * @param sessionTimeout A member that sent no heartbeat for this long is dead: its partitions go to the others.
 *     Must lie within the broker's group.min.session.timeout.ms (6 s by default) and group.max.session.timeout.ms.
 * @param heartbeatInterval How often a member tells the group it lives, and learns that a rebalance started.
 *     At most a third of the session timeout.
 * @param assignment The partition assignors, in order of preference. cooperative-sticky moves only the
 *     partitions that change owner and lets every other member go on consuming; range, round-robin and sticky
 *     stop the whole group for each rebalance. A group moving from an eager assignor lists both for one rolling
 *     restart (cooperative-sticky,range), then cooperative-sticky alone.
 * @param groupInstanceId Static membership: a stable name per replica (e.g. the pod name of a StatefulSet) lets
 *     a restarted replica take its partitions back without a rebalance. Empty (the default): dynamic membership,
 *     where a replica shutting down leaves its groups at once. A static member never leaves on shutdown: its
 *     partitions wait out the session timeout.
 */
public record ConsumerSettings(
        @DefaultValue("10s") Duration sessionTimeout,
        @DefaultValue("1s") Duration heartbeatInterval,
        @DefaultValue("cooperative-sticky") List<Assignor> assignment,
        @DefaultValue("") String groupInstanceId) {

    /** What Kafka accepts in a group.instance.id (as in a topic name). */
    private static final Pattern INSTANCE_ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    public ConsumerSettings {
        positive("swale.kafka.consumer.session-timeout", sessionTimeout);
        positive("swale.kafka.consumer.heartbeat-interval", heartbeatInterval);
        if (heartbeatInterval.multipliedBy(3).compareTo(sessionTimeout) > 0) {
            throw new IllegalArgumentException("swale.kafka.consumer.heartbeat-interval must be at most a third of "
                    + "swale.kafka.consumer.session-timeout (" + sessionTimeout + "), got " + heartbeatInterval);
        }
        present("swale.kafka.consumer.assignment", assignment);
        if (assignment.isEmpty() || assignment.stream().anyMatch(java.util.Objects::isNull)) {
            throw new IllegalArgumentException("swale.kafka.consumer.assignment must name at least one assignor of "
                    + List.of(Assignor.values()));
        }
        assignment = List.copyOf(assignment);
        present("swale.kafka.consumer.group-instance-id", groupInstanceId);
        if (!groupInstanceId.isEmpty() && !INSTANCE_ID.matcher(groupInstanceId).matches()) {
            throw new IllegalArgumentException("swale.kafka.consumer.group-instance-id must be 1 to 200 characters of "
                    + "[A-Za-z0-9._-], got `" + groupInstanceId + "`");
        }
    }

    /** The partition assignors a Swale consumer may use. */
    public enum Assignor {
        COOPERATIVE_STICKY("org.apache.kafka.clients.consumer.CooperativeStickyAssignor"),
        RANGE("org.apache.kafka.clients.consumer.RangeAssignor"),
        ROUND_ROBIN("org.apache.kafka.clients.consumer.RoundRobinAssignor"),
        STICKY("org.apache.kafka.clients.consumer.StickyAssignor");

        private final String className;

        Assignor(String className) {
            this.className = className;
        }

        public String className() {
            return className;
        }
    }
}
