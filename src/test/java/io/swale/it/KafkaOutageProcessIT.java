package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Kafka outage longer than the producer's delivery timeout: the producer gives up on a dispatch (the
 * scheduler's) and on an event (the worker's), and both runs go on once the broker is back, without the periodic
 * reconciler (its interval here is an hour). One broker process, one redis-server, a scheduler+api JVM and a pool
 * JVM of the built jar, each producer giving up after 6 s. Runs in the `multiprocess` profile.
 *
 * <p>The scheduler's consumers are given their partitions again once the restarted broker answers, so its pass
 * after a takeover runs too and, in this set-up, would repair both losses by itself (with the repair unwired the
 * runs still completed, and only the log checks failed). What the test holds is that each member ran a pass for
 * the sends it lost: a worker has no other pass after a fault, and a member cut off from Kafka alone, whose
 * scheduler kept its partitions, has no rebalance to rely on; this machine cannot cut one process off.
 */
class KafkaOutageProcessIT {
    static final List<String> MEMBER_SETTINGS = List.of(
            "--spring.kafka.producer.properties.delivery.timeout.ms=6000",
            "--spring.kafka.producer.properties.request.timeout.ms=3000",
            "--swale.scheduler.reconcile-interval=1h");

    final Path dir = Path.of("target", "kafka-outage").toAbsolutePath();
    ChaosCluster cluster;

    @BeforeAll
    static void quietClients() {
        ChaosCluster.quietTestLogs();
    }

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aDispatchAndAnEventGivenUpOnAreRepairedOnceKafkaIsBack() throws Exception {
        String jar = ChaosCluster.builtJar();
        cluster = new ChaosCluster(dir, jar, MEMBER_SETTINGS, List.of("s1"), List.of("w1"));
        cluster.startAll();
        ChaosProcess scheduler = cluster.schedulers.get("s1");
        ChaosProcess worker = cluster.workers.get("w1");
        SwaleClient api = new SwaleClient(cluster.apiPorts.get("s1"));
        Path started = dir.resolve("a-started");
        Path go = dir.resolve("go");
        String g = IntegrationTest.unique("outage");
        assertThat(api.publish(definition(g, started, go)).status()).isLessThan(300);

        // p1's a runs on the worker until the test lets it end, which it does while Kafka is away
        assertThat(api.start(g, "p1").status()).isEqualTo(200);
        await("p1's a started").atMost(Duration.ofSeconds(60)).until(() -> Files.exists(started));
        cluster.kafka.kill9();
        long killed = System.nanoTime();

        // p2's a is submitted in Redis; its dispatch waits in the scheduler's producer, which gives it up
        assertThat(api.start(g, "p2").status()).isEqualTo(200);
        Files.writeString(go, "");
        await("the scheduler gives up p2's dispatch").atMost(Duration.ofSeconds(60))
                .until(() -> logged(scheduler, "dispatch not sent"));
        await("the worker gives up the event of p1's a").atMost(Duration.ofSeconds(60))
                .until(() -> logged(worker, "event not sent"));

        cluster.kafka.start();
        cluster.awaitReady(cluster.kafka);
        long back = System.nanoTime();
        for (String p : List.of("p1", "p2")) {
            await("run " + p + " complete").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> api.run(g, p).get("state").asString(), "complete"::equals);
        }
        System.out.printf("OUTAGE the broker was away %d ms; both runs were complete %d ms after it answered%n",
                (back - killed) / 1_000_000, (System.nanoTime() - back) / 1_000_000);
        assertThat(repairPassLogged(scheduler)).as("the scheduler's pass after its lost dispatch").isTrue();
        assertThat(repairPassLogged(worker)).as("the worker's pass after its lost event").isTrue();
    }

    private static boolean logged(ChaosProcess p, String text) throws IOException {
        return Files.readString(p.log()).contains(text);
    }

    /** A pass after a fault that answered lost sends (alone, or with faults that asked for it meanwhile). */
    private static boolean repairPassLogged(ChaosProcess p) throws IOException {
        return Files.readAllLines(p.log()).stream()
                .anyMatch(l -> l.contains("reconcile pass after fault=\"") && l.contains("sends given up on ("));
    }

    /** a → b; a writes {@code started}, then waits for {@code go} to exist. */
    private static String definition(String g, Path started, Path go) {
        String a = "touch '" + started + "'; while [ ! -e '" + go + "' ]; do sleep 0.1; done";
        return String.join("\n",
                "[graph]", "name = \"" + g + "\"",
                "[[node]]", "name = \"a\"", "produces = \"" + g + "_a\"", "operator = \"shell\"",
                "[node.params]", "command = \"" + a.replace("\\", "\\\\").replace("\"", "\\\"") + "\"",
                "[[node]]", "name = \"b\"", "produces = \"" + g + "_b\"", "consumes = [\"" + g + "_a\"]",
                "operator = \"shell\"", "[node.params]", "command = \"true\"") + "\n";
    }
}
