package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;

/**
 * Two graphs share a capacity-1 resource across 50 runs while a worker process (from the built jar) is killed
 * with SIGKILL in the middle of a leased node: its grant expires and is reaped, the instance runs again on the
 * surviving in-process worker, and no two leased nodes ever run at the same time, the killed one included
 * (it counts as running until the kill). Runs in the `multiprocess` profile.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=", "swale.roles=scheduler,api", "swale.scheduler.reap-interval=500ms",
        "swale.scheduler.delayed-poll=100ms", "swale.resources.reap-interval=300ms"})
class ResourceLeaseProcessIT {
    /**
     * A node sleeps 0.3 s, but 60 s on the child: the kill must land while its node runs, and a 0.3 s node could
     * end between the test seeing it run and the kill arriving (it did once, under CI load).
     */
    static final String LEASED_SLEEP_VARIABLE = "SWALE_IT_LEASED_SLEEP";
    static final String CHILD_SLEEPS_LONGER = "sleep ${" + LEASED_SLEEP_VARIABLE + ":-0.3}";

    @LocalServerPort
    int port;

    @Autowired
    Environment env;

    Process child;
    final List<ConfigurableApplicationContext> workers = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        if (child != null) {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
        }
        workers.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void aCapacityOneResourceIsNeverHeldTwiceAcross50RunsWithAWorkerKilledMidNode(@TempDir Path dir) throws Exception {
        SwaleClient api = new SwaleClient(port);
        String res = IntegrationTest.unique("wh");
        Path log = dir.resolve("log");
        List<String> graphs = List.of(IntegrationTest.unique("ka"), IntegrationTest.unique("kb"));
        for (String g : graphs) {
            // the node in it too: both nodes of a run share its id and attempt 1, and a kill leaves one start open
            String who = "{{ run.id }}-$SWALE_NODE-$SWALE_ATTEMPT";
            assertThat(api.publish("""
                    [graph]
                    name = "%1$s"
                    [[node]]
                    name = "load"
                    operator = "shell"
                    retries = 2
                    leases = ["%2$s"]
                    [node.params]
                    command = "%3$s"
                    [[node]]
                    name = "check"
                    operator = "shell"
                    after = ["load"]
                    retries = 2
                    leases = ["%2$s"]
                    [node.params]
                    command = "%4$s"
                    """.formatted(g, res, LeaseLog.command(log, who, CHILD_SLEEPS_LONGER),
                    LeaseLog.command(log, who, CHILD_SLEEPS_LONGER))).status()).isEqualTo(201);
        }
        Path childLog = Path.of("target", "resource-worker-" + System.nanoTime() + ".log");
        child = startWorkerJvm(childLog, "--swale.default-slots=2");
        // both workers are up before the first run, so the child takes its share of the 50 runs
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(200))
                .until(() -> Files.exists(childLog) && Files.readString(childLog).contains("Started SwaleApplication"));
        List<String> args = new ArrayList<>(WorkerProcessIT.FAST_FAILURE_DETECTION);
        args.add("--swale.default-slots=2");
        args.add("--swale.resources.reap-interval=300ms");
        workers.add(Workers.start(env, "survivor", args.toArray(String[]::new)));
        int runs = 25;
        for (int p = 0; p < runs; p++) {
            for (String g : graphs) {
                api.start(g, "p" + p);
            }
        }
        // the child holds the lease and runs a node: kill it there
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(50)).until(() -> {
            JsonNode r = api.get("/api/v1/resources/" + res).body();
            if (r.get("holders").isEmpty()) {
                return false;
            }
            String holder = r.get("holders").get(0).get("runId").asString();
            for (String g : graphs) {
                if (holder.startsWith(g + "-")) {
                    String partition = holder.substring(g.length() + 1, holder.indexOf('-', g.length() + 1));
                    JsonNode run = api.run(g, partition);
                    for (JsonNode n : run.get("nodes")) {
                        JsonNode i = n.get("instance");
                        if (!i.isNull() && holder.equals(i.get("runId").asString())
                                && "running".equals(i.get("state").asString()) && "child".equals(i.get("worker").asString())
                                && Files.exists(log) && Files.readString(log).contains("start " + holder + "-")) {
                            return true;
                        }
                    }
                }
            }
            return false;
        });
        List<ProcessHandle> tree = child.descendants().toList();
        new ProcessBuilder("kill", "-9", Long.toString(child.pid())).start().waitFor();
        tree.forEach(ProcessHandle::destroyForcibly); // a killed container takes its programs along
        child.waitFor();
        long killedAtNanos = System.currentTimeMillis() * 1_000_000L;

        await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(500)).until(() -> {
            for (String g : graphs) {
                for (int p = 0; p < runs; p++) {
                    if (api.run(g, "p" + p).get("state").asString().equals("active")) {
                        return false;
                    }
                }
            }
            return true;
        });
        long childRan = Files.readString(childLog).lines().filter(l -> l.contains("attempt started")).count();
        System.out.printf("[figure] leased nodes the child ran before its kill: %d of %d%n", childRan, 2 * runs * 2);
        int killedAttempts = 0;
        for (String g : graphs) {
            for (int p = 0; p < runs; p++) {
                JsonNode run = api.run(g, "p" + p);
                assertThat(run.get("state").asString()).as(g + " p" + p).isEqualTo("complete");
                for (JsonNode n : run.get("nodes")) {
                    for (JsonNode a : n.get("attempts")) {
                        killedAttempts += a.get("outcome").asString().equals("lease_expired") ? 1 : 0;
                    }
                }
            }
        }
        assertThat(killedAttempts).as("the kill cost the node it ran an attempt").isGreaterThanOrEqualTo(1);
        List<LeaseLog.Interval> ran = LeaseLog.read(log, OptionalLong.of(killedAtNanos));
        assertThat(ran.stream().filter(i -> i.who().endsWith("(killed)")).count()).isGreaterThanOrEqualTo(1);
        assertThat(ran.size()).isGreaterThanOrEqualTo(2 * runs * 2 + 1);
        for (int i = 1; i < ran.size(); i++) {
            assertThat(ran.get(i).start()).as("%s started before %s ended", ran.get(i).who(), ran.get(i - 1).who())
                    .isGreaterThanOrEqualTo(ran.get(i - 1).end());
        }
        JsonNode after = api.get("/api/v1/resources/" + res).body();
        assertThat(after.get("held").asInt()).as("nothing leaked").isZero();
        assertThat(after.get("waiting")).isEmpty();
    }

    private Process startWorkerJvm(Path log, String... extra) throws Exception {
        String jar = ChaosCluster.builtJar();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-jar", jar, "--spring.main.web-application-type=none", "--swale.worker.id=child",
                "--swale.resources.reap-interval=300ms",
                // the figure below counts the child's "attempt started" lines, which are DEBUG
                "--logging.level.io.swale.worker.AttemptRunner=debug"));
        cmd.addAll(List.of(extra));
        cmd.addAll(Workers.sameInfrastructure(env));
        cmd.addAll(WorkerProcessIT.FAST_FAILURE_DETECTION);
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put(LEASED_SLEEP_VARIABLE, "60");
        return builder.start();
    }
}
