package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.cli.SwaleCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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

        Result graphs = cli("status", url());
        assertThat(graphs.code()).isZero();
        assertThat(graphs.out()).containsPattern("^GRAPH +DEFINITION +ACTIVE +COMPLETE +FAILED +CANCELLED +LATEST\n");
        assertThat(graphs.out()).containsPattern("(?m)^" + g + " +[0-9a-f]{12} +0 +1 +0 +0 +p1 complete$");

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
        assertThat(queues.out()).containsPattern("^QUEUE +PENDING +SCHEDULED +CLAIMED +DONE +DEAD\n");
        assertThat(queues.out()).containsPattern("(?m)^pool\\.default +\\d+ +\\d+ +\\d+ +\\d+ +\\d+$");
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
        assertThat(cli("validate", dir.resolve("missing.toml").toString()).code()).isEqualTo(1);
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
}
