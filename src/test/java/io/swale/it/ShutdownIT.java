package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaAdmin;
import tools.jackson.databind.JsonNode;

/**
 * Shutdown that cannot be starved: two pool replicas (application contexts in this JVM) share the work of
 * a scheduler-and-API context; one is closed (what SIGTERM does) while it has attempts in flight and more
 * dispatches queued on its partitions. Nothing is lost, nothing runs twice.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=", "swale.roles=scheduler,api", "swale.scheduler.delayed-poll=100ms"})
class ShutdownIT {
    static final int NODES = 8;

    @LocalServerPort
    int port;

    @Autowired
    Environment env;

    @Autowired
    KafkaAdmin admin;

    final List<ConfigurableApplicationContext> workers = new ArrayList<>();

    @AfterEach
    void closeWorkers() {
        workers.forEach(ConfigurableApplicationContext::close);
    }

    static String fanOut(String g, Path log, int seconds) {
        StringBuilder s = new StringBuilder("[graph]\nname = \"" + g + "\"\n");
        for (int i = 0; i < NODES; i++) {
            s.append("""
                    [[node]]
                    name = "t%1$d"
                    operator = "shell"
                    [node.params]
                    command = "echo start >> %2$s/$SWALE_NODE; sleep %3$d; echo done >> %2$s/$SWALE_NODE; printf '{}'"
                    """.formatted(i, log, seconds));
        }
        return s.toString();
    }

    @Test
    void inFlightWorkPastTheGraceIsGivenBackAndQueuedWorkMovesOn(@TempDir Path log) throws Exception {
        Outcome o = scenario(log, "1500ms", 12);
        long released = o.entries().stream().filter(a -> a.get("outcome").asString().equals("released")).count();
        assertThat(released).as("attempts still running after the grace are given back").isGreaterThanOrEqualTo(1);
        List<Long> handOver = new ArrayList<>();
        for (JsonNode history : o.histories()) {
            for (int i = 0; i < history.size(); i++) {
                JsonNode a = history.get(i);
                if (!a.get("outcome").asString().equals("released")) {
                    continue;
                }
                assertThat(a.get("worker").asString()).isEqualTo("w1");
                JsonNode next = history.get(i + 1);
                assertThat(next.get("worker").asString()).isEqualTo("w2");
                assertThat(next.get("attempt").asInt()).as("a given-back attempt is not counted").isEqualTo(1);
                assertThat(next.get("startedMs").asLong()).isGreaterThanOrEqualTo(a.get("endedMs").asLong());
                handOver.add(next.get("startedMs").asLong() - a.get("endedMs").asLong());
            }
        }
        System.out.printf("[figure] shutdown hand-over: close() took %d ms (grace 1500 ms); lease given back → "
                + "claimed on the other replica in %s ms%n", o.closeMs(), handOver);
    }

    @Test
    void inFlightWorkWithinTheGraceFinishesOnTheClosingWorker(@TempDir Path log) throws Exception {
        Outcome o = scenario(log, "20s", 8);
        assertThat(o.entries()).noneMatch(a -> a.get("outcome").asString().equals("released"));
        assertThat(o.entries()).anyMatch(a -> a.get("worker").asString().equals("w1")
                && a.get("outcome").asString().equals("succeeded") && a.get("endedMs").asLong() > o.closeStartMs());
        System.out.printf("[figure] shutdown with in-flight work inside the grace: close() took %d ms%n", o.closeMs());
    }

    record Outcome(List<JsonNode> histories, List<JsonNode> entries, long closeMs, long closeStartMs) {}

    private Outcome scenario(Path log, String grace, int seconds) throws Exception {
        SwaleClient api = new SwaleClient(port);
        ConfigurableApplicationContext w1 = Workers.start(env, "w1", "--swale.default-slots=2",
                "--swale.worker.shutdown-grace=" + grace, "--swale.worker.cancel-poll=200ms");
        workers.add(w1);
        String g = IntegrationTest.unique("shutdown");
        assertThat(api.publish(fanOut(g, log, seconds)).status()).isEqualTo(201);
        api.start(g, "p");
        await().atMost(Duration.ofSeconds(30)).until(() -> Workers.running(w1) == 2);

        // w2 has room to spare, so a given-back attempt measures the hand-over, not a wait for a free slot
        ConfigurableApplicationContext w2 = Workers.start(env, "w2", "--swale.default-slots=8");
        workers.add(w2);
        awaitTwoMembersWithPartitions();
        assertThat(api.run(g, "p").get("state").asString()).isEqualTo("active");

        long closeStart = System.currentTimeMillis();
        long t0 = System.nanoTime();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(w1::close);
        closing.get(60, java.util.concurrent.TimeUnit.SECONDS);
        long closeMs = (System.nanoTime() - t0) / 1_000_000;

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> !api.run(g, "p").get("state").asString().equals("active"));
        JsonNode run = api.run(g, "p");
        assertThat(run.get("state").asString()).as("nothing lost").isEqualTo("complete");
        List<JsonNode> histories = new ArrayList<>();
        List<JsonNode> entries = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            JsonNode node = SwaleClient.node(run, "t" + i);
            assertThat(node.get("record").get("status").asString()).isEqualTo("succeeded");
            assertThat(node.get("record").get("runId").asString()).isEqualTo(g + "-p-t" + i + "-r0");
            JsonNode attempts = node.get("attempts");
            histories.add(attempts);
            attempts.forEach(entries::add);
            long succeeded = 0;
            for (JsonNode a : attempts) {
                succeeded += a.get("outcome").asString().equals("succeeded") ? 1 : 0;
            }
            assertThat(succeeded).as("t%d succeeded exactly once", i).isEqualTo(1);
            List<String> lines = Files.readAllLines(log.resolve("t" + i));
            assertThat(lines.stream().filter("done"::equals).count()).as("t%d ran to its end once", i).isEqualTo(1);
        }
        return new Outcome(histories, entries, closeMs, closeStart);
    }

    private void awaitTwoMembersWithPartitions() {
        try (AdminClient client = AdminClient.create(admin.getConfigurationProperties())) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
                ConsumerGroupDescription d = client.describeConsumerGroups(List.of("swale-pool-default")).all().get()
                        .get("swale-pool-default");
                return d.members().size() == 2
                        && d.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty());
            });
        }
    }
}
