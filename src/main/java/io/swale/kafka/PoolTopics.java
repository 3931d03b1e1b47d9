package io.swale.kafka;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
