package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.kafka.SwaleTopics;
import io.swale.run.Reconciler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaAdmin;
import tools.jackson.databind.JsonNode;

/** Graph runs end to end through the REST API, on the real embedded Kafka and Redis. */
class GraphRunIT extends IntegrationTest {
    @Autowired
    KafkaAdmin admin;

    @Autowired
    SwaleTopics topics;

    @Autowired
    Reconciler reconciler;

    @Test
    void runCompletesAndTemplatedOutputReachesDownstream() {
        String g = unique("tmpl");
        String toml = """
                [graph]
                name = "%1$s"
                [[node]]
                name = "first"
                produces = "%1$s_first"
                operator = "shell"
                [node.params]
                command = "printf '{\\"n\\": 41, \\"who\\": \\"{{ partition }}\\"}'"
                [[node]]
                name = "second"
                produces = "%1$s_second"
                consumes = ["%1$s_first"]
                operator = "shell"
                [node.params]
                command = "printf '{\\"n\\": %%s, \\"who\\": \\"%%s\\"}' $(( {{ upstream.first.n }} + 1 )) {{ upstream.first.who }}"
                """.formatted(g);
        assertThat(api.publish(toml).status()).isEqualTo(201);
        assertThat(api.start(g, "p1").body().get("started").toString()).isEqualTo("[\"p1\"]");

        JsonNode run = awaitSettled(g, "p1");

        assertThat(run.get("state").asString()).isEqualTo("complete");
        JsonNode second = SwaleClient.node(run, "second").get("record");
        assertThat(second.get("output").get("n").asInt()).isEqualTo(42);
        assertThat(second.get("output").get("who").asString()).isEqualTo("p1");
        assertThat(second.get("runId").asString()).isEqualTo(g + "-p1-second-r0");
    }

    @Test
    void secondStartOfTheSamePartitionChangesNothing() {
        String g = unique("twice");
        api.publish(Graphs.chain(g, 2));
        api.start(g, "p");
        JsonNode before = awaitSettled(g, "p");

        JsonNode again = api.start(g, "p").body();

        assertThat(again.get("started").size()).isZero();
        assertThat(api.run(g, "p")).isEqualTo(before);
    }

    @Test
    void failedNodeBlocksItsDownstreamAndAllDoneStillRunsThenRerunCompletes(@TempDir Path dir) throws Exception {
        String g = unique("fail");
        Path fixed = dir.resolve("fixed");
        api.publish(Graphs.failing(g, fixed.toString()));
        api.start(g, "p");

        JsonNode failed = awaitSettled(g, "p");

        assertThat(failed.get("state").asString()).isEqualTo("failed");
        assertThat(SwaleClient.node(failed, "flaky").get("state").asString()).isEqualTo("failed");
        assertThat(SwaleClient.node(failed, "flaky").get("record").get("error").asString())
                .contains("sh").contains("3").contains("not yet");
        assertThat(SwaleClient.node(failed, "after_flaky").get("state").asString()).isEqualTo("blocked");
        assertThat(SwaleClient.node(failed, "after_flaky").get("record").isNull()).isTrue();
        assertThat(SwaleClient.node(failed, "always").get("state").asString()).isEqualTo("succeeded");

        Files.writeString(fixed, "ok");
        SwaleClient.Response rerun = api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/flaky/rerun", "");
        assertThat(rerun.status()).isEqualTo(200);
        assertThat(rerun.body().get("runId").asString()).isEqualTo(g + "-p-flaky-r1");

        JsonNode complete = awaitSettled(g, "p");
        assertThat(complete.get("state").asString()).isEqualTo("complete");
        assertThat(SwaleClient.node(complete, "after_flaky").get("record").get("runId").asString())
                .isEqualTo(g + "-p-after_flaky-r0");
        // all_done kept the record it wrote after the failure
        assertThat(SwaleClient.node(complete, "always").get("record").get("runId").asString())
                .isEqualTo(g + "-p-always-r0");
    }

    @Test
    void rerunOfSucceededNodeRerunsItsScopeWhileAllDoneKeepsItsRecord() {
        String g = unique("scope");
        api.publish(Graphs.diamondWithReport(g));
        api.start(g, "p");
        awaitSettled(g, "p");

        SwaleClient.Response rerun = api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/a/rerun", "");
        assertThat(rerun.status()).isEqualTo(200);
        assertThat(rerun.body().get("runId").asString()).isEqualTo(g + "-p-a-r1");
        JsonNode reactivated = api.run(g, "p");
        assertThat(reactivated.get("expectedReruns").toString()).isEqualTo("{\"a\":1,\"b\":1,\"c\":1}");

        JsonNode done = awaitSettled(g, "p");

        assertThat(done.get("state").asString()).isEqualTo("complete");
        assertThat(SwaleClient.node(done, "a").get("record").get("rerun").asInt()).isEqualTo(1);
        assertThat(SwaleClient.node(done, "b").get("record").get("rerun").asInt()).isEqualTo(1);
        assertThat(SwaleClient.node(done, "c").get("record").get("rerun").asInt()).isEqualTo(1);
        assertThat(SwaleClient.node(done, "report").get("record").get("rerun").asInt()).isZero();
        assertThat(done.get("expectedReruns").size()).isZero();
    }

    @Test
    void afterCancelNoFurtherNodeIsSubmitted() {
        String g = unique("cancel");
        // `next` runs once `slow` has ended in any state: only the cancel of the run can keep it from running
        api.publish("""
                [graph]
                name = "%1$s"
                [[node]]
                name = "slow"
                operator = "shell"
                [node.params]
                command = "sleep 30; printf '{}'"
                [[node]]
                name = "next"
                after = ["slow"]
                trigger_rule = "all_done"
                operator = "noop"
                """.formatted(g));
        api.start(g, "p");
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            JsonNode i = SwaleClient.node(api.run(g, "p"), "slow").get("instance");
            return !i.isNull() && i.get("state").asString().equals("running");
        });

        SwaleClient.Response cancel = api.postJson("/api/v1/graphs/" + g + "/runs/p/cancel", "");
        assertThat(cancel.status()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(10)).until(() ->
                !SwaleClient.node(api.run(g, "p"), "slow").get("record").isNull());
        // the scheduler has handled slow's termination event, and a reconciler pass has seen the run
        ConsumerGroups.awaitCaughtUp(admin.getConfigurationProperties(), "swale-scheduler", topics.events());
        reconciler.pass();
        JsonNode run = api.run(g, "p");
        assertThat(run.get("state").asString()).isEqualTo("cancelled");
        assertThat(SwaleClient.node(run, "slow").get("record").get("status").asString()).isEqualTo("cancelled");
        assertThat(SwaleClient.node(run, "next").get("record").isNull()).isTrue();
        assertThat(SwaleClient.node(run, "next").get("instance").isNull()).isTrue();
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs/p/cancel", "").status()).isEqualTo(409);
    }

    @Test
    void moreLongAttemptsThanSlotsAllRun() {
        String g = unique("slots");
        StringBuilder toml = new StringBuilder("[graph]\nname = \"" + g + "\"\n");
        for (int i = 0; i < 7; i++) {
            toml.append("[[node]]\nname = \"s").append(i).append("\"\noperator = \"shell\"\n")
                    .append("[node.params]\ncommand = \"sleep 1; printf '{}'\"\n");
        }
        api.publish(toml.toString());
        api.start(g, "p");

        JsonNode run = awaitSettled(g, "p");

        assertThat(run.get("state").asString()).isEqualTo("complete");
        // the default pool has 4 slots: the dispatches that found them full were handed back and came again
        for (int i = 0; i < 7; i++) {
            JsonNode record = SwaleClient.node(run, "s" + i).get("record");
            assertThat(record.get("status").asString()).isEqualTo("succeeded");
        }
    }
}
