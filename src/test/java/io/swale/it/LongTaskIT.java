package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.kafka.SwaleTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaAdmin;
import tools.jackson.databind.JsonNode;

/**
 * A task longer than the consumer's max.poll.interval.ms (4 s in these tests): no rebalance, no second copy,
 * and other dispatches on the same Kafka partition run meanwhile.
 */
class LongTaskIT extends IntegrationTest {
    static final int PARTITIONS = 4;

    @Autowired
    KafkaAdmin admin;

    @Autowired
    SwaleTopics topics;

    @Test
    void aTaskLongerThanMaxPollIntervalCausesNoRebalanceNoCopyAndNoStall() throws Exception {
        String g = unique("long");
        api.publish(Graphs.slowThenNext(g, 9));
        int partition = partitionOf(g + "-p-slow-r0");
        Set<String> membersBefore = members();
        api.start(g, "p");
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            JsonNode i = SwaleClient.node(api.run(g, "p"), "slow").get("instance");
            return !i.isNull() && i.get("state").asString().equals("running");
        });

        // three short runs whose dispatches land on the same partition, behind the long one
        List<String> shorts = new ArrayList<>();
        for (int n = 0; shorts.size() < 3; n++) {
            String s = g + "_s" + n;
            if (partitionOf(s + "-p-n0-r0") == partition) {
                shorts.add(s);
            }
        }
        for (String s : shorts) {
            api.publish(Graphs.chain(s, 1));
            api.start(s, "p");
        }
        for (String s : shorts) {
            await().atMost(Duration.ofSeconds(20)).until(() -> api.run(s, "p").get("state").asString().equals("complete"));
        }
        assertThat(SwaleClient.node(api.run(g, "p"), "slow").get("record").isNull())
                .as("the short runs completed while the long task still ran").isTrue();

        JsonNode run = awaitSettled(g, "p");

        assertThat(run.get("state").asString()).isEqualTo("complete");
        JsonNode attempts = SwaleClient.node(run, "slow").get("attempts");
        assertThat(attempts).hasSize(1);
        assertThat(attempts.get(0).get("attempt").asInt()).isEqualTo(1);
        assertThat(attempts.get(0).get("endedMs").asLong() - attempts.get(0).get("startedMs").asLong())
                .isGreaterThan(8_000L);
        assertThat(members()).as("same consumer, never kicked out of the group").isEqualTo(membersBefore);
    }

    private static int partitionOf(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    private Set<String> members() throws Exception {
        try (AdminClient client = AdminClient.create(admin.getConfigurationProperties())) {
            var d = client.describeConsumerGroups(List.of("swale-pool-default")).all().get().get("swale-pool-default");
            return d.members().stream().map(MemberDescription::consumerId).collect(Collectors.toSet());
        }
    }
}
