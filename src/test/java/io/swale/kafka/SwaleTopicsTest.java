package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SwaleTopicsTest {

    @Test
    void theDefaultPrefixKeepsTheGroupNamesSwaleAlwaysHad() {
        SwaleTopics topics = new SwaleTopics("swale.");
        assertThat(List.of(topics.schedulerGroup(), topics.triggersGroup(), topics.poolGroup("etl")))
                .containsExactly("swale-scheduler", "swale-scheduler-triggers", "swale-pool-etl");
        assertThat(topics.pool("etl")).isEqualTo("swale.pool.etl");
    }

    @Test
    void installationsUnderDifferentPrefixesShareNoGroup() {
        Set<String> a = groups(new SwaleTopics("swale."));
        Set<String> b = groups(new SwaleTopics("acme."));
        Set<String> c = groups(new SwaleTopics("acme-"));
        assertThat(b).containsExactlyInAnyOrder("acme.scheduler", "acme.scheduler-triggers", "acme.pool-default");
        assertThat(c).containsExactlyInAnyOrder("acme-scheduler", "acme-scheduler-triggers", "acme-pool-default");
        assertThat(a).doesNotContainAnyElementsOf(b).doesNotContainAnyElementsOf(c);
        assertThat(b).doesNotContainAnyElementsOf(c);
    }

    @Test
    void theQueuesAreTheEventsTheTriggersThenEachPoolsWithTheGroupThatReadsIt() {
        SwaleTopics topics = new SwaleTopics("acme.");
        List<SwaleTopics.Queue> queues = topics.queues(List.of("etl", "gpu"));
        assertThat(queues).extracting(SwaleTopics.Queue::name).containsExactly("events", "triggers", "pool.etl", "pool.gpu");
        assertThat(queues.get(2).channel()).isEqualTo(new KafkaInspector.Channel("acme.pool.etl", "acme.pool-etl"));
        assertThat(queues.get(0).channel()).isEqualTo(new KafkaInspector.Channel("acme.events", "acme.scheduler"));
        assertThat(queues).extracting(q -> q.pool().orElse("-")).containsExactly("-", "-", "etl", "gpu");
    }

    private static Set<String> groups(SwaleTopics topics) {
        return List.of(topics.schedulerGroup(), topics.triggersGroup(), topics.poolGroup("default")).stream()
                .collect(Collectors.toSet());
    }
}
