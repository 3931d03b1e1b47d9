package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.roles.PoolRole;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * object_exists: a poll that finds nothing ends its step (Continue) and the instance waits in Redis's delayed
 * set, holding no worker thread, until its next poll. The s3:// case runs against S3Mock started as its own
 * JVM; credentials come from the SDK's default chain (system properties here).
 */
class SensorIT extends IntegrationTest {
    static S3MockServer s3;

    @Autowired
    PoolRole pools;

    @DynamicPropertySource
    static void s3(DynamicPropertyRegistry registry) {
        System.setProperty("aws.accessKeyId", "swale-it");
        System.setProperty("aws.secretAccessKey", "swale-it-secret");
        s3 = S3MockServer.start();
        registry.add("swale.s3.endpoint", s3::endpoint);
        registry.add("swale.s3.region", () -> "us-east-1");
    }

    @AfterAll
    static void stopS3() {
        if (s3 != null) {
            s3.close();
        }
    }

    static String sensor(String g, String url, String timeout) {
        return """
                [graph]
                name = "%1$s"
                [[node]]
                name = "wait"
                produces = "%1$s_wait"
                operator = "object_exists"
                [node.params]
                url = "%2$s"
                interval = "2s"
                timeout = "%3$s"
                """.formatted(g, url, timeout);
    }

    @Test
    void aFileFoundOnTheThirdPollHoldsNoWorkerInBetween(@TempDir Path dir) throws Exception {
        String g = unique("filesensor");
        Path file = dir.resolve("landing.csv");
        api.publish(sensor(g, file.toUri().toString(), "1m"));
        api.start(g, "p");

        int waitingSamples = awaitTwoEmptyPollsWithNoWorkerHeld(g);
        Files.writeString(file, "a,b\n1,2\n");

        JsonNode run = awaitSettled(g, "p");
        assertThat(run.get("state").asString()).isEqualTo("complete");
        JsonNode record = SwaleClient.node(run, "wait").get("record");
        assertThat(record.get("output").get("size").asLong()).isEqualTo(8L);
        assertThat(record.get("output").get("url").asString()).isEqualTo(file.toUri().toString());
        assertThat(record.get("output").get("last_modified").asString()).endsWith("Z");
        assertThirdPollSucceeded(SwaleClient.node(run, "wait").get("attempts"));
        assertThat(waitingSamples).as("samples taken while the sensor waited").isGreaterThanOrEqualTo(2);
    }

    @Test
    void anS3ObjectFoundOnTheThirdPoll() throws Exception {
        String g = unique("s3sensor");
        String key = g + "/20260915.parquet";
        api.publish(sensor(g, "s3://" + S3MockServer.BUCKET + "/" + key, "1m"));
        api.start(g, "p");

        awaitTwoEmptyPollsWithNoWorkerHeld(g);
        s3.put(key, "PAR1-payload".getBytes());

        JsonNode run = awaitSettled(g, "p");
        assertThat(run.get("state").asString()).isEqualTo("complete");
        JsonNode output = SwaleClient.node(run, "wait").get("record").get("output");
        assertThat(output.get("url").asString()).isEqualTo("s3://" + S3MockServer.BUCKET + "/" + key);
        assertThat(output.get("size").asLong()).isEqualTo(12L);
        assertThat(output.get("last_modified").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThirdPollSucceeded(SwaleClient.node(run, "wait").get("attempts"));
    }

    @Test
    void anObjectThatNeverAppearsFailsAtItsDeadlineWithoutDeadLetter() {
        String g = unique("s3never");
        api.publish(sensor(g, "s3://" + S3MockServer.BUCKET + "/never/there", "2s"));
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p");

        assertThat(run.get("state").asString()).isEqualTo("failed");
        JsonNode node = SwaleClient.node(run, "wait");
        assertThat(node.get("record").get("error").asString()).contains("never/there").contains("timeout of 2 s");
        assertThat(node.get("attempts").size()).isBetween(2, 3);
    }

    /**
     * Waits until two polls have ended empty, checking all along that while the instance waits for its next
     * poll no attempt runs in the pool. Returns how many waiting samples it took.
     */
    /** A step waiting for its next poll: pending, as the API's states go, and due later. */
    private static boolean waitsForItsNextPoll(JsonNode instance) {
        if (instance.isNull()) {
            return false;
        }
        assertThat(instance.get("state").asString()).as("the API's instance states (interfaces §2)")
                .isIn("pending", "running", "cancelling");
        return instance.get("state").asString().equals("pending") && instance.hasNonNull("dueAt");
    }

    private int awaitTwoEmptyPollsWithNoWorkerHeld(String g) {
        AtomicInteger samples = new AtomicInteger();
        // The pool counts an attempt as running until its operator returned, and it settles after that; a sample
        // taken while a slot is still held is not a fault. Once a waiting step has been seen with no slot held,
        // none may be held again until the next poll.
        AtomicLong freedAtStep = new AtomicLong(-1);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            JsonNode before = SwaleClient.node(api.run(g, "p"), "wait").get("instance");
            int running = pools.running().getOrDefault("default", -1);
            JsonNode after = SwaleClient.node(api.run(g, "p"), "wait").get("instance");
            boolean waitingThroughout = waitsForItsNextPoll(before) && waitsForItsNextPoll(after)
                    && before.get("step").asLong() == after.get("step").asLong();
            if (waitingThroughout && freedAtStep.get() == after.get("step").asLong()) {
                assertThat(running).as("no attempt runs while the sensor waits for its next poll").isZero();
                samples.incrementAndGet();
            } else if (waitingThroughout && running == 0) {
                freedAtStep.set(after.get("step").asLong());
                samples.incrementAndGet();
            }
            return waitingThroughout && after.get("step").asLong() == 2;
        });
        return samples.get();
    }

    private static void assertThirdPollSucceeded(JsonNode attempts) {
        assertThat(attempts).hasSize(3);
        String[] outcomes = {"continue", "continue", "succeeded"};
        for (int i = 0; i < 3; i++) {
            assertThat(attempts.get(i).get("step").asInt()).isEqualTo(i);
            assertThat(attempts.get(i).get("attempt").asInt()).isEqualTo(1);
            assertThat(attempts.get(i).get("outcome").asString()).isEqualTo(outcomes[i]);
        }
        long gap = attempts.get(1).get("startedMs").asLong() - attempts.get(0).get("endedMs").asLong();
        assertThat(gap).isBetween(1_900L, 3_500L);
    }
}
