package io.swale.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

/** Creates the topics of a pool (and its dead letters) once per process, before the first dispatch. */
public final class PoolTopics {
    private final KafkaAdmin admin;
    private final SwaleTopics topics;
    private final int partitions;
    private final short replicas;
    private final Set<String> ensured = ConcurrentHashMap.newKeySet();

    public PoolTopics(KafkaAdmin admin, SwaleTopics topics, int partitions, short replicas) {
        this.admin = admin;
        this.topics = topics;
        this.partitions = partitions;
        this.replicas = replicas;
    }

    /**
     * An admin for {@link #ensure} that gives up after about {@code bound}, a second more at most. The first
     * dispatch to a pool runs it in the sender's thread: during an outage it then waits no longer than a send
     * waits for its metadata, where the admin's defaults (30 s for the operation, then the close waiting for the
     * pending call's own 60 s) held a slot, a listener or an API request a minute.
     */
    public static KafkaAdmin boundedAdmin(Map<String, Object> adminConfig, Duration bound) {
        // whole seconds for the admin's operation, at most what its millisecond settings can carry
        long seconds = Math.clamp(bound.toSeconds() + (bound.toMillisPart() > 0 ? 1 : 0), 1,
                Integer.MAX_VALUE / 1000 - 1);
        Map<String, Object> config = new HashMap<>(adminConfig);
        // a call outlives the operation's wait by a second, so the operation gives up first, once, and the close
        // that follows waits that second for the call, not a whole second call (a timed-out describe would be
        // taken for a missing topic and followed by a create)
        int callMs = (int) (seconds * 1000 + 1000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, callMs);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, callMs);
        KafkaAdmin admin = new KafkaAdmin(config);
        admin.setOperationTimeout((int) seconds);
        return admin;
    }

    /** Creates the pool's topics unless this process did; a failure (Kafka unreachable, refused) throws. */
    public void ensure(String pool) {
        if (ensured.contains(pool)) {
            return;
        }
        String topic = topics.pool(pool);
        admin.createOrModifyTopics(topic(topic), topic(SwaleTopics.deadLetter(topic)));
        ensured.add(pool);
    }

    public NewTopic topic(String name) {
        return TopicBuilder.name(name).partitions(partitions).replicas(replicas).build();
    }
}
