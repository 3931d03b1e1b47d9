package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.cli.SwaleCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line against the running service, and `swale run` on its own embedded Kafka and Redis. */
class CliIT extends IntegrationTest {
    @TempDir
    Path dir;

    record Result(int code, String out, String err) {}

    static Result cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SwaleCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    private String url() {
        return "--url=" + api.base();
    }

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void validatePublishStartStatusRerunCancelQueues() throws IOException {
        String g = unique("cli");
        Path def = file(g + ".toml", Graphs.chain(g, 2));

        Result validate = cli("validate", def.toString());
        assertThat(validate.code()).isZero();
        assertThat(validate.out().strip()).isEqualTo(g + ": 2 nodes, 1 edges");

        Result publish = cli("publish", def.toString(), url());
        assertThat(publish.code()).isZero();
        assertThat(publish.out()).startsWith(g + " ").contains(" published");
        assertThat(cli("publish", def.toString(), url()).out()).contains(" unchanged");

        Result start = cli("start", g, "p1", url());
        assertThat(start.code()).as(start.err()).isZero();
        assertThat(start.out()).contains("started p1");
        awaitSettled(g, "p1");
        assertThat(cli("start", g, "p1", url()).out()).contains("every partition already had a run");

        // the run counts may be up to a second old (docs/operations.md)
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Result graphs = cli("status", url());
            assertThat(graphs.code()).isZero();
            assertThat(graphs.out()).containsPattern("^GRAPH +DEFINITION +ACTIVE +COMPLETE +FAILED +CANCELLED +LATEST\n");
            assertThat(graphs.out()).containsPattern("(?m)^" + g + " +[0-9a-f]{12} +0 +1 +0 +0 +p1 complete$");
        });

        Result runs = cli("status", g, url());
        assertThat(runs.out()).containsPattern("^PARTITION +STATE +REQUESTED +DEFINITION\n");
        assertThat(runs.out()).containsPattern("(?m)^p1 +complete +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ +[0-9a-f]{12}$");

        Result run = cli("status", g, "p1", url());
        assertThat(run.out()).startsWith(g + "/p1  complete  requested ");
        assertThat(run.out()).containsPattern("(?m)^NODE +POOL +STATE +RUN +TERMINATED$");
        assertThat(run.out()).containsPattern("(?m)^n1 +default +succeeded +" + g + "-p1-n1-r0 +\\S+Z$");

        Result rerun = cli("rerun", g, "p1", "n1", url());
        assertThat(rerun.code()).as(rerun.err()).isZero();
        assertThat(rerun.out()).contains("submitted " + g + "-p1-n1-r1");
        awaitSettled(g, "p1");

        Result refused = cli("cancel", g, "p1", url());
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("no active run");
        Result unknownNode = cli("rerun", g, "p1", "zz", url());
        assertThat(unknownNode.code()).isEqualTo(1);
        assertThat(unknownNode.err()).contains("zz");

        Result queues = cli("queues", url());
        assertThat(queues.code()).isZero();
        assertThat(queues.out()).containsPattern("^QUEUE +PENDING +SCHEDULED +CLAIMED +DONE +DEAD +LAG +GROUP\n");
        assertThat(queues.out()).containsPattern("(?m)^pool\\.default +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +swale-pool-default$");
        Result letters = cli("queues", "pool.default", url());
        assertThat(letters.code()).isZero();
        assertThat(letters.out()).containsPattern("^JOB +RUN +ATTEMPTS +ENQUEUED\n");
    }

    @Test
    void statusOfAFailedRunPrintsTheErrorUnderItsNode() {
        String g = unique("clifail");
        api.publish(Graphs.failing(g, "/nonexistent/never"));
        api.start(g, "p");
        awaitSettled(g, "p");

        Result run = cli("status", g, "p", url());

        assertThat(run.code()).isZero();
        assertThat(run.out()).containsPattern("(?m)^after_flaky +default +blocked +- +-$");
        assertThat(run.out()).containsPattern("(?m)^flaky: .*not yet");
    }

    @Test
    void errorsAndBadArgumentsGiveTheirExitCodes() throws IOException {
        assertThat(cli("status", "nosuchgraph", url()).code()).isEqualTo(1);
        assertThat(cli("start", "g", "bad-key", url()).code()).isEqualTo(2);
        assertThat(cli("start", "g", url()).code()).isEqualTo(2);
        assertThat(cli("status", "--bogus", url()).code()).isEqualTo(2);
        assertThat(cli("status", "--url=http://127.0.0.1:1").code()).isEqualTo(1);
        Path bad = file("bad.toml", "[graph]\nname = \"Bad-Name\"\n");
        Result invalid = cli("validate", bad.toString());
        assertThat(invalid.code()).isEqualTo(1);
        assertThat(invalid.err()).contains("InvalidGraphName").contains("NoNodes");
        Result missing = cli("validate", dir.resolve("missing.toml").toString());
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err()).contains("missing.toml: no such file");
        Result publishMissing = cli("publish", dir.resolve("missing.toml").toString(), url());
        assertThat(publishMissing.code()).isEqualTo(1);
        assertThat(publishMissing.err()).contains("missing.toml: no such file");
        assertThat(cli("queues", "nosuch", url()).code()).isEqualTo(1);
    }

    @Test
    void validateChecksTheScheduleInTheServicesCronDialect() throws IOException {
        // five fields, so a count of fields passes it; the dialect has no step without a range start of `*`
        Path stepped = file("stepped.toml", "[graph]\nname = \"stepped\"\nschedule = \"5/5 * * * *\"\n"
                + "partition = \"daily\"\n[[node]]\nname = \"a\"\noperator = \"noop\"\n");
        Result validate = cli("validate", stepped.toString());
        assertThat(validate.code()).isEqualTo(1);
        assertThat(validate.err()).contains("InvalidSchedule");
    }

    @Test
    void publishSendsAFileNamedInUpperCaseYamlAsYaml() throws IOException {
        String g = unique("cli_yml");
        Path yml = file(g + ".YML", "graph:\n  name: " + g + "\nnode:\n  - name: a\n    operator: noop\n");
        assertThat(cli("validate", yml.toString()).code()).isZero();
        Result publish = cli("publish", yml.toString(), url());
        assertThat(publish.code()).as(publish.err()).isZero();
        assertThat(publish.out()).startsWith(g + " ").contains("published");
    }

    @Test
    void runOfAFailingGraphPrintsEachRecordWithTheErrorUnderTheNodeAndExits1() throws IOException {
        String g = unique("clirun");
        Path def = file(g + ".toml", """
                [graph]
                name = "%1$s"
                [[node]]
                name = "fine"
                operator = "shell"
                [node.params]
                command = "printf '{}'"
                [[node]]
                name = "boom"
                after = ["fine"]
                operator = "shell"
                [node.params]
                command = "echo kaput >&2; exit 4"
                """.formatted(g));

        Result run = cli("run", def.toString());

        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(1);
        assertThat(run.out()).contains("started " + g + "/none: 1 root(s) submitted");
        assertThat(run.out()).contains("fine: succeeded " + g + "-none-fine-r0\n");
        assertThat(run.out()).containsPattern("boom: failed " + g + "-none-boom-r0\n    .*kaput");
        assertThat(run.out().strip()).endsWith("run " + g + "/none failed");
        Path daily = file("daily.toml", Graphs.daily(unique("clidaily"), false));
        Result noPartition = cli("run", daily.toString());
        assertThat(noPartition.code()).isEqualTo(1);
        assertThat(noPartition.err()).contains("--partition");
        assertThat(cli("run", daily.toString(), "--partition", "2026-09-01").code()).isEqualTo(2);
    }

    /** Was: only the definition's own nodes were printed, so a grown node that failed the run was never named. */
    @Test
    void runPrintsTheRecordsOfGrownNodes() throws IOException {
        String g = unique("cligrow");
        Path grow = file(g + ".json", """
                {"swale": {"grow": {"node": [
                  {"name": "fix", "operator": "noop"},
                  {"name": "broke", "after": ["fix"], "operator": "shell",
                   "params": {"command": "echo grown-kaput >&2; exit 3"}}]}}}""");
        Path def = file(g + ".toml", """
                [graph]
                name = "%1$s"
                [[node]]
                name = "decide"
                operator = "shell"
                [node.params]
                command = "cat %2$s"
                [[node]]
                name = "report"
                after = ["decide"]
                operator = "noop"
                """.formatted(g, grow));

        Result run = cli("run", def.toString());

        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(1);
        assertThat(run.out()).contains("decide: succeeded " + g + "-none-decide-r0\n");
        assertThat(run.out()).contains("fix: succeeded " + g + "-none-fix-r0\n");
        assertThat(run.out()).containsPattern("broke: failed " + g + "-none-broke-r0\n    .*grown-kaput");
        assertThat(run.out().strip()).endsWith("run " + g + "/none failed");
    }

    /** Was: `run` read its file a second time for the run, which a pipe no longer has: `<(…)` hung or failed. */
    @Test
    void runReadsItsFileOnceSoADefinitionFromAPipeRuns() throws Exception {
        String g = unique("clipipe");
        Path fifo = dir.resolve(g + ".toml");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                Files.writeString(fifo, Graphs.chain(g, 1));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });

        Result run = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofMinutes(2),
                () -> cli("run", fifo.toString()));

        writer.join();
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        assertThat(run.out().strip()).endsWith("run " + g + "/none complete");
    }

    @Test
    void queuesShowTheEventsAndTriggersTopicsBesideThePoolsWithTheLagOfEachGroup() {
        String g = unique("cliqueues");
        api.publish(Graphs.chain(g, 2));
        api.start(g, "p1");
        awaitSettled(g, "p1");
        // the events of that run were consumed by the scheduler's group
        Result queues = cli("queues", url());

        assertThat(queues.code()).as(queues.err()).isZero();
        assertThat(queues.out()).containsPattern("(?m)^events +- +- +- +[1-9]\\d* +\\d+ +\\d+ +swale-scheduler$");
        assertThat(queues.out()).containsPattern("(?m)^triggers +- +- +- +\\d+ +\\d+ +\\d+ +swale-scheduler-triggers$");
        assertThat(queues.out()).containsPattern("(?m)^pool\\.default +\\d+ +\\d+ +\\d+ +[1-9]\\d* +\\d+ +\\d+ +swale-pool-default$");
        assertThat(queues.out()).containsPattern("(?m)^pool\\.unserved +");
    }

    @Test
    void startAndRerunWithWaitExitByTheRunsOutcome() throws IOException {
        String g = unique("cliwait");
        api.publish(Graphs.chain(g, 2));
        Result complete = cli("start", g, "p1", "p2", "--wait", url());
        assertThat(complete.code()).as(complete.out() + complete.err()).isZero();
        assertThat(complete.out()).contains("run " + g + "/p1 complete").contains("run " + g + "/p2 complete");
        assertThat(api.run(g, "p1").get("state").asString()).isEqualTo("complete");

        Result rerun = cli("rerun", g, "p1", "n1", "--wait", url());
        assertThat(rerun.code()).as(rerun.out() + rerun.err()).isZero();
        assertThat(rerun.out()).contains("submitted " + g + "-p1-n1-r1").contains("run " + g + "/p1 complete");
        // the wait ended after the rerun's own record, not on the run's earlier outcome
        assertThat(SwaleClient.node(api.run(g, "p1"), "n1").get("record").get("runId").asString())
                .isEqualTo(g + "-p1-n1-r1");

        String f = unique("cliwaitfail");
        api.publish(Graphs.failing(f, dir.resolve("never").toString()));
        Result failed = cli("start", f, "p", "--wait", url());
        assertThat(failed.code()).as(failed.out() + failed.err()).isEqualTo(1);
        assertThat(failed.out()).contains("run " + f + "/p failed").containsPattern("    flaky: .*not yet");
        Files.writeString(dir.resolve("never"), "");
        Result fixed = cli("rerun", f, "p", "flaky", "--timeout", "5m", url());
        assertThat(fixed.code()).as(fixed.out() + fixed.err()).isZero();
        assertThat(fixed.out()).contains("run " + f + "/p complete");
    }

    @Test
    void waitGivesUpAtItsTimeoutAndACancelledRunExits3() {
        String g = unique("cliwaitcancel");
        api.publish(Graphs.slowThenNext(g, 300));
        Result timedOut = cli("start", g, "p", "--wait", "--timeout", "1s", url());
        assertThat(timedOut.code()).as(timedOut.out() + timedOut.err()).isEqualTo(4);
        assertThat(timedOut.err()).contains("still active: " + g + "/p");
        assertThat(api.run(g, "p").get("state").asString()).as("waiting only watches").isEqualTo("active");

        assertThat(api.cancel(g, "p").status()).isEqualTo(200);
        // the partition already had a run: --wait waits for that one
        Result cancelled = cli("start", g, "p", "--wait", url());
        assertThat(cancelled.code()).as(cancelled.out() + cancelled.err()).isEqualTo(3);
        assertThat(cancelled.out()).contains("every partition already had a run").contains("run " + g + "/p cancelled");

        assertThat(cli("start", g, "p", "--timeout", "soon", url()).code()).isEqualTo(2);
        assertThat(cli("rerun", g, "p", "slow", "--timeout", "0s", url()).code()).isEqualTo(2);
    }

    /** Ctrl-C on `swale run` in its own JVM: the run is cancelled, its task's process stopped, exit 130. */
    @Test
    void ctrlCOnRunCancelsTheRunAndExits130() throws Exception {
        String jar = System.getProperty("swale.it.app.jar");
        assertThat(jar).as("the packaged jar (failsafe's swale.it.app.jar)").isNotNull();
        assertThat(Path.of(jar)).exists();
        String g = unique("cliint");
        String sleep = Processes.uniqueSleep(300);
        Path def = file(g + ".toml", """
                [graph]
                name = "%1$s"
                [[node]]
                name = "nap"
                operator = "shell"
                [node.params]
                command = "sleep %2$s"
                [[node]]
                name = "after_nap"
                after = ["nap"]
                operator = "noop"
                """.formatted(g, sleep));
        List<String> cmd = new ArrayList<>();
        if (ignoresSigint()) {
            // a JVM keeps SIGINT ignored when it started that way (a background job of a script)
            cmd.addAll(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die"));
        }
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar, "run",
                def.toString()));
        Path log = dir.resolve("run.log");
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> !Processes.withMarker("sleep " + sleep).isEmpty());
            assertThat(Files.readString(log)).contains("started " + g + "/none");

            new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start().waitFor();

            assertThat(child.waitFor(2, TimeUnit.MINUTES)).as("the child exits").isTrue();
            String out = Files.readString(log);
            assertThat(child.exitValue()).as(out).isEqualTo(SwaleCli.INTERRUPTED);
            assertThat(out).contains("interrupted: cancelling " + g + "/none")
                    .contains("run " + g + "/none cancelled\n")
                    .doesNotContain("after_nap:");
            await().atMost(Duration.ofSeconds(10)).until(() -> Processes.withMarker("sleep " + sleep).isEmpty());
        } finally {
            child.destroyForcibly();
            Processes.withMarker("sleep " + sleep).forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static boolean ignoresSigint() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return false;
        }
        return Files.readAllLines(status).stream().filter(l -> l.startsWith("SigIgn:"))
                .anyMatch(l -> (Long.parseLong(l.substring("SigIgn:".length()).strip(), 16) & 2) != 0);
    }
}
