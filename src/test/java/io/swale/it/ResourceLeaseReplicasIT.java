package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.swale.SwaleApplication;
import io.swale.metrics.MicrometerSwaleMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.AdminClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaAdmin;
import tools.jackson.databind.JsonNode;

/**
 * Leases with two scheduler replicas (issue 16 item 4): this context and a second one in the same JVM each run
 * the scheduler and a pool worker on the same Kafka and Redis. Two graphs share a capacity-1 resource; the runs
 * run on both replicas' workers (each replica also holds part of the scheduler group's partitions) and no two
 * leased nodes ever run at the same time, whichever replica submitted them and whichever worker claimed them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=", "swale.roles=scheduler,pool,api", "swale.worker.id=replica-1",
        "swale.scheduler.delayed-poll=100ms", "swale.resources.reap-interval=300ms", "swale.default-slots=2",
        // one consumer per group and replica: the four partitions of each topic split two and two
        "swale.kafka.listener-concurrency=1"})
class ResourceLeaseReplicasIT {
    @LocalServerPort
    int port;

    @Autowired
    Environment env;

    @Autowired
    KafkaAdmin admin;

    @Autowired
    MeterRegistry registry;

    ConfigurableApplicationContext second;

    @AfterEach
    void stop() {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void twoSchedulerReplicasNeverRunTwoHoldersOfACapacityOneResourceAtOnce(@TempDir Path dir) throws Exception {
        second = new SpringApplicationBuilder(SwaleApplication.class).web(WebApplicationType.NONE).run(
                "--spring.kafka.bootstrap-servers=" + env.getProperty("spring.kafka.bootstrap-servers"),
                "--spring.data.redis.host=" + env.getProperty("spring.data.redis.host", "127.0.0.1"),
                "--spring.data.redis.port=" + env.getProperty("spring.data.redis.port"),
                "--swale.roles=scheduler,pool", "--swale.examples=", "--swale.worker.id=replica-2",
                "--spring.quartz.scheduler-name=quartz-replica-2", "--spring.application.name=replica-2",
                "--swale.scheduler.delayed-poll=100ms", "--swale.resources.reap-interval=300ms",
                "--swale.default-slots=2", "--swale.kafka.listener-concurrency=1");
        // both replicas hold their share of the scheduler's and the pool's partitions before the first run
        for (String group : List.of("swale-scheduler", "swale-pool-default")) {
            ConsumerGroups.awaitStable(admin.getConfigurationProperties(), group);
            try (AdminClient client = AdminClient.create(admin.getConfigurationProperties())) {
                var members = client.describeConsumerGroups(List.of(group)).all().get().get(group).members();
                assertThat(members).as(group).hasSize(2)
                        .allSatisfy(m -> assertThat(m.assignment().topicPartitions()).isNotEmpty());
            }
        }
        SwaleClient api = new SwaleClient(port);
        String res = IntegrationTest.unique("shared");
        Path log = dir.resolve("log");
        List<String> graphs = List.of(IntegrationTest.unique("ra"), IntegrationTest.unique("rb"));
        for (String g : graphs) {
            assertThat(api.publish("""
                    [graph]
                    name = "%1$s"
                    [[node]]
                    name = "load"
                    operator = "shell"
                    leases = ["%2$s"]
                    [node.params]
                    command = "%3$s"
                    [[node]]
                    name = "check"
                    operator = "shell"
                    after = ["load"]
                    leases = ["%2$s"]
                    [node.params]
                    command = "%3$s"
                    """.formatted(g, res, LeaseLog.command(log, "{{ run.id }}", "sleep 0.02"))).status())
                    .isEqualTo(201);
        }
        int runs = 12;
        for (int p = 0; p < runs; p++) {
            for (String g : graphs) {
                api.start(g, "p" + p);
            }
        }
        await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250)).until(() -> {
            for (String g : graphs) {
                for (int p = 0; p < runs; p++) {
                    if (api.run(g, "p" + p).get("state").asString().equals("active")) {
                        return false;
                    }
                }
            }
            return true;
        });
        Map<String, Integer> byWorker = new TreeMap<>();
        for (String g : graphs) {
            for (int p = 0; p < runs; p++) {
                JsonNode run = api.run(g, "p" + p);
                assertThat(run.get("state").asString()).as(g + " p" + p).isEqualTo("complete");
                for (JsonNode n : run.get("nodes")) {
                    for (JsonNode a : n.get("attempts")) {
                        byWorker.merge(a.get("worker").asString(), 1, Integer::sum);
                    }
                }
            }
        }
        double firstSettled = settled(registry, graphs);
        double secondSettled = settled(second.getBean(MeterRegistry.class), graphs);
        System.out.printf("[figure] leased attempts by worker: %s; runs settled by replica 1: %.0f, by replica 2: %.0f%n",
                byWorker, firstSettled, secondSettled);
        // both replicas' workers ran leased nodes and both schedulers settled runs (the 24 run keys spread over
        // the four partitions, two per replica), each run once
        assertThat(byWorker.keySet()).containsExactlyInAnyOrder("replica-1", "replica-2");
        assertThat(firstSettled + secondSettled).isEqualTo(2.0 * runs);
        assertThat(firstSettled).as("runs settled by replica 1").isPositive();
        assertThat(secondSettled).as("runs settled by replica 2").isPositive();

        List<LeaseLog.Interval> ran = LeaseLog.read(log);
        assertThat(ran).hasSize(2 * runs * 2);
        for (int i = 1; i < ran.size(); i++) {
            assertThat(ran.get(i).start()).as("%s started before %s ended", ran.get(i).who(), ran.get(i - 1).who())
                    .isGreaterThanOrEqualTo(ran.get(i - 1).end());
        }
        JsonNode after = api.get("/api/v1/resources/" + res).body();
        assertThat(after.get("held").asInt()).isZero();
        assertThat(after.get("waiting")).isEmpty();
    }

    private static double settled(MeterRegistry registry, List<String> graphs) {
        List<Double> counts = new ArrayList<>();
        for (String g : graphs) {
            registry.find(MicrometerSwaleMetrics.RUNS_SETTLED).tag("graph", g).counters()
                    .forEach(c -> counts.add(c.count()));
        }
        return counts.stream().mapToDouble(Double::doubleValue).sum();
    }
}
