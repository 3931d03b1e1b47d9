package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.swale.SwaleApplication;
import io.swale.config.redis.FailoverReconcile;
import io.swale.metrics.MicrometerSwaleMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import tools.jackson.databind.JsonNode;

/**
 * The service on a Sentinel-managed Redis (primary, replica, three sentinels): graph runs are in flight when
 * the primary is killed ({@code kill -9}); the sentinels promote the replica, Swale follows it, detects the
 * failover, runs a reconciler pass at once, and every run completes with every node succeeded.
 */
class SentinelFailoverIT {
    static final int RUNS = 16;

    @Test
    void everyRunCompletesAfterThePrimaryIsKilled(@TempDir Path dir) throws Exception {
        EmbeddedKafkaKraftBroker kafka = new EmbeddedKafkaKraftBroker(1, 4);
        kafka.brokerListProperty("swale.test.kafka.brokers");
        kafka.brokerProperties(Map.of("group.initial.rebalance.delay.ms", "0", "offsets.topic.num.partitions", "4",
                "auto.create.topics.enable", "false"));
        kafka.afterPropertiesSet();
        try (SentinelRedis redis = SentinelRedis.start(dir);
                ConfigurableApplicationContext app = start(kafka.getBrokersAsString(), redis)) {
            int port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
            MeterRegistry meters = app.getBean(MeterRegistry.class);
            SwaleClient api = new SwaleClient(port);
            String g = IntegrationTest.unique("failover");
            api.publish("""
                    [graph]
                    name = "%1$s"
                    [[node]]
                    name = "extract"
                    produces = "%1$s_raw"
                    operator = "shell"
                    retries = 5
                    [node.params]
                    command = "sleep 0.4; printf '{\\"rows\\": 3}'"
                    [[node]]
                    name = "load"
                    produces = "%1$s_loaded"
                    consumes = ["%1$s_raw"]
                    operator = "shell"
                    retries = 5
                    [node.params]
                    command = "sleep 0.4; printf '{}'"
                    """.formatted(g));
            List<String> partitions = IntStream.range(0, RUNS).mapToObj(i -> "p" + i).toList();
            String all = partitions.stream().map(p -> "\"" + p + "\"").collect(Collectors.joining(","));
            assertThat(api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[" + all + "]}").body()
                    .get("started")).hasSize(RUNS);
            // kill mid-run: some tasks have ended, most have not
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> terminated(meters) >= 2);
            double before = terminated(meters);
            long killedAt = System.nanoTime();
            redis.killPrimary();

            await("a task settles after the kill").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> terminated(meters) > before);
            long firstSettledMs = (System.nanoTime() - killedAt) / 1_000_000;
            try {
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                        .until(() -> partitions.stream().allMatch(p -> state(api, g, p).equals("complete")));
            } catch (ConditionTimeoutException e) {
                Map<String, String> states = partitions.stream().collect(Collectors.toMap(p -> p,
                        p -> state(api, g, p), (a, b) -> a, LinkedHashMap::new));
                // what a failure needs to be told apart: no failover seen, no pass run, or a run the pass left
                String stuck = states.entrySet().stream().filter(s -> !s.getValue().equals("complete"))
                        .map(s -> s.getKey() + " " + api.get("/api/v1/graphs/" + g + "/runs/" + s.getKey()).body())
                        .collect(Collectors.joining("\n"));
                throw new AssertionError("not every run completed: " + states + "; failovers detected "
                        + count(meters, FailoverReconcile.FAILOVERS) + ", reconcile passes "
                        + count(meters, FailoverReconcile.FAILOVER_PASSES) + "\n" + stuck, e);
            }
            long allSettledMs = (System.nanoTime() - killedAt) / 1_000_000;
            for (String p : partitions) {
                JsonNode run = api.run(g, p);
                for (String node : List.of("extract", "load")) {
                    assertThat(SwaleClient.node(run, node).get("record").get("status").asString()).as(p + "/" + node)
                            .isEqualTo("succeeded");
                }
            }
            assertThat(redis.currentPrimaryPort()).as("the sentinels promoted the replica").isEqualTo(redis.replicaPort);
            await("failover detected and reconciled").atMost(Duration.ofSeconds(10))
                    .until(() -> count(meters, FailoverReconcile.FAILOVERS) >= 1
                            && count(meters, FailoverReconcile.FAILOVER_PASSES) >= 1);
            System.out.printf("sentinel failover: primary killed -> first task settled after it %d ms, all %d runs"
                    + " complete %d ms; failovers detected %.0f, reconcile passes %.0f%n", firstSettledMs, RUNS,
                    allSettledMs, count(meters, FailoverReconcile.FAILOVERS),
                    count(meters, FailoverReconcile.FAILOVER_PASSES));
        } finally {
            kafka.destroy();
        }
    }

    private static ConfigurableApplicationContext start(String bootstrap, SentinelRedis redis) {
        SpringApplication app = new SpringApplication(SwaleApplication.class);
        app.setRegisterShutdownHook(false);
        return app.run("--server.port=0", "--server.address=127.0.0.1", "--spring.kafka.bootstrap-servers=" + bootstrap,
                "--spring.data.redis.sentinel.master=" + SentinelRedis.MASTER,
                "--spring.data.redis.sentinel.nodes=" + redis.sentinelNodes(),
                "--spring.data.redis.timeout=1s", "--spring.data.redis.connect-timeout=500ms",
                "--swale.embedded=false", "--swale.examples=", "--swale.security.open=true",
                "--swale.default-slots=4", "--swale.worker.lease=4s", "--swale.worker.heartbeat=1s",
                "--swale.worker.retry-initial=200ms", "--swale.worker.retry-max=1s",
                "--swale.scheduler.reap-interval=500ms", "--swale.scheduler.delayed-poll=100ms",
                // the periodic pass comes long after the test: the pass it sees is the failover's
                "--swale.scheduler.reconcile-interval=10m", "--swale.scheduler.stale-dispatch=10s",
                "--spring.kafka.consumer.properties.max.poll.interval.ms=10000");
    }

    private static double terminated(MeterRegistry meters) {
        return meters.find(MicrometerSwaleMetrics.TASKS_TERMINATED).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private static double count(MeterRegistry meters, String name) {
        return meters.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    private static String state(SwaleClient api, String g, String p) {
        var r = api.get("/api/v1/graphs/" + g + "/runs/" + p);
        return r.status() == 200 ? api.run(g, p).get("state").asString() : "absent (" + r.status() + ")";
    }
}
