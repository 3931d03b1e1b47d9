package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.kafka.SwaleTopics;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaAdmin;
import tools.jackson.databind.JsonNode;

/** Outputs end to end: an oversized output is omitted from the record; stdout that is not JSON is permanent. */
class OutputsIT extends IntegrationTest {
    @Autowired
    KafkaAdmin admin;

    @Autowired
    SwaleTopics topics;

    @Test
    void anOutputOverTheRecordLimitIsOmittedAndReachesDownstreamAsNull() {
        omittedAndNullDownstream("bigout", 300_000);
    }

    @Test
    void stdoutTooLargeToHoldIsJudgedAsItStreamsAndItsOutputOmitted() {
        // more than the 64 MiB a worker holds of one stdout
        omittedAndNullDownstream("hugeout", 80_000_000);
    }

    /** A node whose output is one JSON string of {@code bytes} letters, and a downstream that echoes its inputs. */
    private void omittedAndNullDownstream(String prefix, int bytes) {
        String g = unique(prefix);
        String toml = """
                [graph]
                name = "%1$s"
                [[node]]
                name = "big"
                produces = "%1$s_big"
                operator = "shell"
                [node.params]
                command = "printf '\\"'; head -c %2$d /dev/zero | tr '\\\\0' a; printf '\\"'"
                [[node]]
                name = "after"
                produces = "%1$s_after"
                consumes = ["%1$s_big"]
                operator = "shell"
                [node.params]
                command = "printf '%%s' \\"$SWALE_INPUTS\\""
                """.formatted(g, bytes);
        assertThat(api.publish(toml).status()).isEqualTo(201);
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p");

        assertThat(run.get("state").asString()).isEqualTo("complete");
        JsonNode big = SwaleClient.node(run, "big").get("record");
        assertThat(big.get("status").asString()).isEqualTo("succeeded");
        assertThat(big.get("outputOmitted").asBoolean()).isTrue();
        assertThat(big.get("output").isNull()).isTrue();
        JsonNode after = SwaleClient.node(run, "after").get("record");
        assertThat(after.get("output").toString()).isEqualTo("{\"big\":null}");
    }

    @Test
    void stdoutThatIsNotJsonIsAPermanentError() {
        String g = unique("notjson");
        String toml = """
                [graph]
                name = "%1$s"
                [[node]]
                name = "talk"
                produces = "%1$s_talk"
                operator = "shell"
                retries = 3
                [node.params]
                command = "echo hello there"
                """.formatted(g);
        api.publish(toml);
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p");

        assertThat(run.get("state").asString()).isEqualTo("failed");
        JsonNode node = SwaleClient.node(run, "talk");
        assertThat(node.get("record").get("error").asString()).contains("sh").contains("not JSON");
        assertThat(node.get("attempts")).hasSize(1);
        String dlt = SwaleTopics.deadLetter(topics.pool("default"));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                DeadLetterTopic.read(admin.getConfigurationProperties(), dlt, g + "-p-talk-r0").size() == 1);
    }
}
