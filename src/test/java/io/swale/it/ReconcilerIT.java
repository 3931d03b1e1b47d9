package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.periodic.SyncService;
import io.swale.record.GraphRunRecord;
import io.swale.run.Reconciler;
import io.swale.settings.SwaleProperties;
import io.swale.store.DefinitionStore;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.redis.RedisKeys;
import io.swale.task.ReconcilePass;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.JsonNode;

/**
 * The reconciler alone moves runs forward: this context has no scheduler role, so nobody consumes the
 * events topic and every step after the start is the reconciler's.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=", "swale.roles=pool,api", "swale.redis.key-prefix=swale-reconciler",
        "swale.kafka.topic-prefix=reconciler."})
class ReconcilerIT {
    @LocalServerPort
    int port;

    @Autowired
    Reconciler reconciler;

    @Autowired
    SyncService sync;

    @Autowired
    RunStore runs;

    @Autowired
    DefinitionStore definitions;

    @Autowired
    UnifiedJedis redis;

    @Autowired
    SwaleProperties props;

    @Test
    void passesWithoutEventsAdvanceAndSettleARun() {
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("recon");
        assertThat(api.publish(Graphs.chain(g, 3)).status()).isEqualTo(201);
        sync.sync();
        api.start(g, "p");

        JsonNode run = settleByPasses(api, g, "p");

        assertThat(run.get("state").asString()).isEqualTo("complete");
        assertThat(SwaleClient.node(run, "n2").get("record").get("status").asString()).isEqualTo("succeeded");
    }

    @Test
    void crashBetweenRunRecordAndRootSubmissionIsRepaired() {
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("crash");
        api.publish(Graphs.chain(g, 2));
        sync.sync();
        String hash = definitions.graphRecord(g).orElseThrow().definition();
        // What start_run leaves when it dies right after creating the run: a run, no task instance.
        assertThat(runs.create(new RunKey(g, Partition.of("p")), GraphRunRecord.started(hash, System.currentTimeMillis())))
                .isTrue();
        assertThat(SwaleClient.node(api.run(g, "p"), "n0").get("instance").isNull()).isTrue();

        ReconcilePass first = reconciler.pass();
        assertThat(first.submitted()).isGreaterThanOrEqualTo(1);

        JsonNode run = settleByPasses(api, g, "p");
        assertThat(run.get("state").asString()).isEqualTo("complete");
        assertThat(SwaleClient.node(run, "n0").get("record").get("runId").asString()).isEqualTo(g + "-p-n0-r0");
    }

    /**
     * Spec §14 #6: a succeeded instance whose node record is gone is not run again; its record is written back from
     * the instance (output omitted: the instance does not keep it), and the run goes on.
     */
    @Test
    void aRecordLostAfterItsInstanceEndedIsDerivedAgainNotRerun() {
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("lost");
        assertThat(api.publish(Graphs.chain(g, 2)).status()).isEqualTo(201);
        sync.sync();
        RedisKeys keys = new RedisKeys(props.redis().keyPrefix());
        RunKey key = new RunKey(g, Partition.of("p"));
        String n0 = g + "-p-n0-r0";
        api.start(g, "p");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            String instance = redis.hget(keys.instances(key), n0);
            return instance != null && instance.contains("\"state\":\"succeeded\"");
        });
        assertThat(redis.hdel(keys.nodeRecords(key), "a:" + g + "_n0")).isEqualTo(1);

        JsonNode run = settleByPasses(api, g, "p");

        JsonNode first = SwaleClient.node(run, "n0");
        assertThat(first.get("record").get("runId").asString()).isEqualTo(n0);
        assertThat(first.get("record").get("status").asString()).isEqualTo("succeeded");
        assertThat(first.get("record").get("outputOmitted").asBoolean()).isTrue();
        assertThat(first.get("attempts").size()).as("attempts of %s", n0).isEqualTo(1);
        assertThat(SwaleClient.node(run, "n1").get("record").get("status").asString()).isEqualTo("succeeded");
    }

    private JsonNode settleByPasses(SwaleClient api, String g, String p) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            reconciler.pass();
            return api.run(g, p).get("state").asString().equals("complete");
        });
        return api.run(g, p);
    }
}
