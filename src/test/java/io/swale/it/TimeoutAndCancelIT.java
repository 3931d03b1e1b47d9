package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.kafka.SwaleTopics;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaAdmin;
import tools.jackson.databind.JsonNode;

/** Timeouts and cancellation reach the running program: the whole tree is killed. */
class TimeoutAndCancelIT extends IntegrationTest {
    @Autowired
    KafkaAdmin admin;

    @Autowired
    SwaleTopics topics;

    static String sleeper(String g, String sleep, String pool, int retries, String timeout) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "work"
                produces = "%1$s_work"
                operator = "shell"
                pool = "%3$s"
                retries = %4$d
                [node.params]
                command = "sleep %2$s; printf '{}'"
                %5$s
                """.formatted(g, sleep, pool, retries, timeout.isEmpty() ? "" : "timeout = \"" + timeout + "\"");
    }

    @Test
    void sixtySecondSleepWithTwoSecondTimeoutIsKilledRetriedThenFailed() {
        String g = unique("timeout");
        String sleep = Processes.uniqueSleep(60);
        api.publish(sleeper(g, sleep, "default", 1, "2s"));
        api.start(g, "p");

        // between the attempts the first program is gone
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
            JsonNode i = SwaleClient.node(api.run(g, "p"), "work").get("instance");
            // waiting for its retry: pending, and due later
            return !i.isNull() && i.get("state").asString().equals("pending") && i.hasNonNull("dueAt");
        });
        assertThat(Processes.withMarker(sleep)).isEmpty();

        JsonNode run = awaitSettled(g, "p");

        assertThat(run.get("state").asString()).isEqualTo("failed");
        JsonNode record = SwaleClient.node(run, "work").get("record");
        assertThat(record.get("error").asString()).contains("timeout of 2s").contains("killed");
        JsonNode attempts = SwaleClient.node(run, "work").get("attempts");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).get("outcome").asString()).isEqualTo("retry");
        assertThat(attempts.get(1).get("outcome").asString()).isEqualTo("failed");
        for (JsonNode a : attempts) {
            long ran = a.get("endedMs").asLong() - a.get("startedMs").asLong();
            assertThat(ran).isBetween(1_900L, 4_000L);
        }
        assertThat(Processes.withMarker(sleep)).isEmpty();
        String dlt = SwaleTopics.deadLetter(topics.pool("default"));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                DeadLetterTopic.read(admin.getConfigurationProperties(), dlt, g + "-p-work-r0").size() == 1);
    }

    @Test
    void cancelKillsARunningSleepWithinTwoSecondsAndItsDispatchIsRefusedLater() throws Exception {
        String g = unique("cancel300");
        String sleep = Processes.uniqueSleep(300);
        api.publish(sleeper(g, sleep, "default", 0, ""));
        api.start(g, "p");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> !Processes.withMarker(sleep).isEmpty());

        long t0 = System.nanoTime();
        assertThat(api.cancel(g, "p").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                .until(() -> Processes.withMarker(sleep).isEmpty());
        long goneMs = (System.nanoTime() - t0) / 1_000_000;
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                .until(() -> !SwaleClient.node(api.run(g, "p"), "work").get("record").isNull());
        long recordedMs = (System.nanoTime() - t0) / 1_000_000;

        System.out.printf("[figure] cancel latency: process gone %d ms, cancelled record %d ms after the request%n",
                goneMs, recordedMs);
        assertThat(goneMs).isLessThan(2_000L);
        JsonNode run = api.run(g, "p");
        assertThat(run.get("state").asString()).isEqualTo("cancelled");
        JsonNode node = SwaleClient.node(run, "work");
        assertThat(node.get("record").get("status").asString()).isEqualTo("cancelled");
        assertThat(node.get("attempts")).hasSize(1);
        assertThat(node.get("attempts").get(0).get("outcome").asString()).isEqualTo("cancelled");
    }

    @Test
    void aDispatchStillInKafkaWhenItsRunIsCancelledIsRefusedAtClaim() throws Exception {
        // pool solo has one slot: the blocker holds it, so the second dispatch waits in Kafka
        String blocker = unique("blocker");
        String blockerSleep = Processes.uniqueSleep(300);
        api.publish(sleeper(blocker, blockerSleep, "solo", 0, ""));
        api.start(blocker, "p");
        await().atMost(Duration.ofSeconds(20)).until(() -> !Processes.withMarker(blockerSleep).isEmpty());

        String g = unique("queued");
        api.publish(sleeper(g, "0", "solo", 0, ""));
        api.start(g, "p");
        JsonNode pending = SwaleClient.node(api.run(g, "p"), "work").get("instance");
        assertThat(pending.get("state").asString()).isEqualTo("pending");

        assertThat(api.cancel(g, "p").status()).isEqualTo(200);
        JsonNode cancelled = api.run(g, "p");
        assertThat(SwaleClient.node(cancelled, "work").get("record").get("status").asString()).isEqualTo("cancelled");

        // free the slot: the queued dispatch is now delivered, and the claim refuses it
        api.cancel(blocker, "p");
        String topic = topics.pool("solo");
        ConsumerGroups.awaitCaughtUp(admin.getConfigurationProperties(), "swale-pool-solo", topic);
        JsonNode after = api.run(g, "p");
        assertThat(SwaleClient.node(after, "work").get("attempts")).isEmpty();
        assertThat(SwaleClient.node(after, "work").get("record")).isEqualTo(SwaleClient.node(cancelled, "work").get("record"));
        assertThat(SwaleClient.node(after, "work").get("record").get("error").asString()).contains("cancelled");
    }
}
