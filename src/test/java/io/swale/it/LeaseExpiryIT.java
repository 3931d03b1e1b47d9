package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;

/**
 * A worker that stops heartbeating: its attempts' leases expire, the reaper dispatches the instance again while
 * attempts remain, and ends it {@code failed} once none is left, with the run view saying why. The worker here
 * is alive but never extends a lease (its first heartbeat would come after 10 minutes, its lease is 2 s), as a
 * hung or partitioned worker behaves.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=", "swale.roles=scheduler,api", "swale.scheduler.reap-interval=300ms",
        "swale.scheduler.delayed-poll=100ms"})
class LeaseExpiryIT {
    @LocalServerPort
    int port;

    @Autowired
    Environment env;

    final List<ConfigurableApplicationContext> workers = new ArrayList<>();

    @AfterEach
    void closeWorkers() {
        workers.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void expiredLeasesWithNoAttemptLeftEndTheTaskFailedAndTheRunViewSaysWhy() {
        SwaleClient api = new SwaleClient(port);
        workers.add(Workers.start(env, "silent", "--swale.default-slots=4", "--swale.worker.lease=2s",
                "--swale.worker.heartbeat=1s", "--swale.worker.cancel-poll=10m", "--swale.worker.shutdown-grace=0s"));
        String g = IntegrationTest.unique("expiry");
        assertThat(api.publish("""
                [graph]
                name = "%s"
                [[node]]
                name = "stuck"
                operator = "shell"
                retries = 1
                [node.params]
                command = "sleep 60"
                """.formatted(g)).status()).isEqualTo(201);
        api.start(g, "p");

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> !api.run(g, "p").get("state").asString().equals("active"));
        JsonNode run = api.run(g, "p");
        assertThat(run.get("state").asString()).isEqualTo("failed");
        JsonNode node = SwaleClient.node(run, "stuck");
        assertThat(node.get("record").get("status").asString()).isEqualTo("failed");
        assertThat(node.get("record").get("error").asString())
                .isEqualTo("the lease of attempt 2 expired and no attempt is left");
        JsonNode attempts = node.get("attempts");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).get("attempt").asInt()).isEqualTo(1);
        assertThat(attempts.get(0).get("outcome").asString()).as("dispatched again, an attempt was left")
                .isEqualTo("lease_expired");
        assertThat(attempts.get(1).get("attempt").asInt()).isEqualTo(2);
        assertThat(attempts.get(1).get("outcome").asString()).isEqualTo("failed");
        assertThat(attempts.get(1).get("error").asString()).contains("lease of attempt 2 expired");
        assertThat(attempts).allSatisfy(a -> assertThat(a.get("worker").asString()).isEqualTo("silent"));
    }
}
