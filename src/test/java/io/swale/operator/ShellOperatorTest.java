package io.swale.operator;

import static io.swale.operator.TestAttempts.attempt;
import static io.swale.operator.TestAttempts.json;
import static io.swale.operator.TestAttempts.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class ShellOperatorTest {
    private final ShellOperator operator = new ShellOperator();

    @TempDir
    Path tmp;

    /** Pids a test saw started, killed after the test in case it failed half-way. */
    private List<Long> started = List.of();

    @AfterEach
    void killLeftovers() {
        started.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    private static ObjectNode command(String command) {
        ObjectNode params = TestAttempts.JSON.createObjectNode();
        params.put("command", command);
        return params;
    }

    private OperatorResult run(ObjectNode params) {
        return operator.execute(attempt(params).build());
    }

    private static String messageOf(OperatorResult result) {
        return switch (result) {
            case OperatorResult.PermanentError p -> p.message();
            case OperatorResult.TransientError t -> t.message();
            default -> throw new AssertionError("not an error: " + result);
        };
    }

    /**
     * A command that starts two `sleep 300` children and records their pids and its own, so the test
     * can check that the whole tree dies.
     */
    private String sleepingTree(Path marker) {
        return "sleep 300 & a=$!; sleep 300 & b=$!; "
                + "printf '%s\\n%s\\n%s\\n' \"$a\" \"$b\" \"$$\" > '" + marker + ".tmp' && mv '" + marker + ".tmp' '" + marker + "'; "
                + "wait";
    }

    @Test
    void jsonOnStdoutIsTheOutput() {
        assertThat(run(command("printf '{\"n\": 1}'"))).isEqualTo(new OperatorResult.Succeeded(json("{\"n\":1}")));
    }

    @Test
    void environmentHasTheWorkerVariablesTheSwaleVariablesAndTheEnvParamsLast() {
        ObjectNode params = command("printf '{\"run\":\"%s\",\"graph\":\"%s\",\"partition\":\"%s\",\"node\":\"%s\","
                + "\"attempt\":%s,\"inputs\":%s,\"worker\":\"%s\",\"extra\":\"%s\",\"home\":\"%s\"}' "
                + "\"$SWALE_RUN_ID\" \"$SWALE_GRAPH\" \"$SWALE_PARTITION\" \"$SWALE_NODE\" \"$SWALE_ATTEMPT\" "
                + "\"$SWALE_INPUTS\" \"$WORKER_VAR\" \"$EXTRA\" \"${HOME-unset}\"");
        params.set("env", json("{\"SWALE_NODE\": \"overridden\", \"EXTRA\": \"from params\", \"WORKER_VAR\": \"w2\"}"));
        ObjectNode inputs = object("{\"extract\": {\"table\": \"orders_raw\"}, \"gone\": null}");
        OperatorResult result = operator.execute(attempt(params).inputs(inputs).attempt(3)
                .env(TestAttempts.workerEnv(Map.of("WORKER_VAR", "w1"))).build());

        assertThat(result).isEqualTo(new OperatorResult.Succeeded(json("""
                {"run": "orders-20260915-load-r0", "graph": "orders", "partition": "20260915",
                 "node": "overridden", "attempt": 3,
                 "inputs": {"extract": {"table": "orders_raw"}, "gone": null},
                 "worker": "w2", "extra": "from params", "home": "unset"}""")));
    }

    @Test
    void workerVariablesAreKeptWhenNotOverridden() {
        OperatorResult result = operator.execute(attempt(command("printf '\"%s\"' \"$WORKER_VAR\""))
                .env(TestAttempts.workerEnv(Map.of("WORKER_VAR", "w1"))).build());
        assertThat(result).isEqualTo(new OperatorResult.Succeeded(json("\"w1\"")));
    }

    @Test
    void stdinIsClosed() {
        // `cat` would block on an open stdin; with /dev/null it ends at once
        assertThat(run(command("cat; printf 7"))).isEqualTo(new OperatorResult.Succeeded(json("7")));
    }

    @Test
    void exitCodeRowsNameTheProgramSh() {
        OperatorResult tempFail = run(command("echo 'lock held' >&2; exit 75"));
        assertThat(tempFail).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(tempFail)).contains("`sh`").contains("75").contains("lock held");

        OperatorResult other = run(command("echo 'bad input' >&2; exit 9"));
        assertThat(other).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(other)).contains("`sh`").contains("code 9").contains("bad input");

        OperatorResult signalled = run(command("kill -TERM $$"));
        assertThat(signalled).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(signalled)).contains("`sh`").contains("signal 15");

        OperatorResult notJson = run(command("echo done"));
        assertThat(notJson).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(notJson)).contains("`sh`").contains("not JSON");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void stdoutBeyondWhatIsHeldIsStillJudged() {
        // 70 MB, more than the 64 MiB held: JSON succeeds with its output omitted, anything else is refused
        OperatorResult json = run(command("printf '['; yes '1,' | tr -d '\\n' | head -c 70000000; printf '1]'"));
        // compared by kind first: a failure must not print 70 MB
        assertThat(json).isInstanceOf(OperatorResult.Succeeded.class);
        assertThat(((OperatorResult.Succeeded) json).outputOmitted()).isTrue();
        assertThat(json).isEqualTo(OperatorResult.Succeeded.omitted());

        OperatorResult text = run(command("head -c 70000000 /dev/zero | tr '\\000' a"));
        assertThat(text).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(text)).contains("`sh`").contains("not JSON").contains("at byte 0 (`a`)");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void bigStdoutAndStderrAreReadConcurrently() {
        // 1 MiB on stderr first, then a 1 MiB JSON string on stdout: either pipe alone fills up
        OperatorResult result = run(command("head -c 1048576 /dev/zero | tr '\\000' e >&2; "
                + "printf '\"'; head -c 1048576 /dev/zero | tr '\\000' a; printf '\"'"));
        assertThat(result).isInstanceOf(OperatorResult.Succeeded.class);
        assertThat(((OperatorResult.Succeeded) result).output().asString()).hasSize(1024 * 1024).matches("a+");
    }

    @Test
    void cancellationKillsTheWholeTreeWithinTwoSeconds() throws Exception {
        Path marker = tmp.resolve("pids");
        Cancellation cancellation = new Cancellation();
        CompletableFuture<OperatorResult> result = CompletableFuture.supplyAsync(
                () -> operator.execute(attempt(command(sleepingTree(marker))).cancellation(cancellation).build()));
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(marker));
        started = TestAttempts.pids(marker);
        assertThat(started).hasSize(3).allMatch(TestAttempts::isRunning);

        long cancelledAt = System.nanoTime();
        cancellation.cancel("run orders/20260915 cancelled");
        OperatorResult ended = result.get(2, TimeUnit.SECONDS);
        await().atMost(Duration.ofMillis(2_000 - (System.nanoTime() - cancelledAt) / 1_000_000))
                .until(() -> started.stream().noneMatch(TestAttempts::isRunning));

        assertThat(ended).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(ended)).contains("cancelled").contains("run orders/20260915 cancelled");
    }

    @Test
    void timeoutEndsTheAttemptAndKillsTheWholeTree() throws Exception {
        Path marker = tmp.resolve("pids");
        ObjectNode params = command("echo about-to-hang >&2; " + sleepingTree(marker));
        params.put("timeout", "2s");
        CompletableFuture<OperatorResult> result = CompletableFuture.supplyAsync(() -> run(params));
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(marker));
        started = TestAttempts.pids(marker);

        OperatorResult ended = result.get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(2)).until(() -> started.stream().noneMatch(TestAttempts::isRunning));
        assertThat(ended).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(ended)).contains("`sh`").contains("timeout of 2s")
                .as("the stderr of a stopped program is kept too").contains("stderr tail: about-to-hang");
    }

    @Test
    void cancellationKillsAProcessThatLeftTheTreeToo() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "a /proc file system");
        Path marker = tmp.resolve("pids");
        // the subshell exits at once: its background sleep goes to init, out of the program's tree
        String command = "(sleep 300 & echo $! > '" + marker + ".tmp' && mv '" + marker + ".tmp' '" + marker + "'); "
                + "sleep 300";
        Cancellation cancellation = new Cancellation();
        CompletableFuture<OperatorResult> result = CompletableFuture.supplyAsync(
                () -> operator.execute(attempt(command(command)).cancellation(cancellation).build()));
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(marker));
        started = TestAttempts.pids(marker);
        assertThat(started).hasSize(1).allMatch(TestAttempts::isRunning);
        // the pid is written before the subshell exits: the sleep leaves the worker's tree a moment later
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.current().descendants()
                .noneMatch(h -> h.pid() == started.getFirst()));

        cancellation.cancel("run orders/20260915 cancelled");
        assertThat(result.get(10, TimeUnit.SECONDS)).isInstanceOf(OperatorResult.TransientError.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> started.stream().noneMatch(TestAttempts::isRunning));
    }

    @Test
    void anAttemptCancelledBeforeItStartsRunsNothing() {
        Path marker = tmp.resolve("ran");
        Cancellation cancellation = new Cancellation();
        cancellation.cancel("cancelled early");
        OperatorResult result = operator.execute(attempt(command("touch '" + marker + "'"))
                .cancellation(cancellation).build());
        assertThat(result).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(result)).contains("cancelled early");
        assertThat(marker).doesNotExist();
    }

    @Test
    void paramsWithAnUnknownKeyAreRejected() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"command\": \"true\", \"cwd\": \"/tmp\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("cwd");
    }

    @Test
    void paramsOfTheWrongTypeAreRejected() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"command\": 5}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("command");
        assertThatThrownBy(() -> operator.checkParams(json("{\"command\": [\"ls\"]}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("command");
        assertThatThrownBy(() -> operator.checkParams(json("{\"command\": \"true\", \"env\": {\"A\": 1}}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("env.A");
        assertThatThrownBy(() -> operator.checkParams(json("{\"command\": \"true\", \"env\": [\"A=1\"]}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("env");
        assertThatThrownBy(() -> operator.checkParams(json("{\"command\": \"true\", \"timeout\": 60}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("timeout");
        assertThatThrownBy(() -> operator.checkParams(json("{\"command\": \"true\", \"timeout\": \"1.5h\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("`1.5h`");
    }

    @Test
    void missingCommandIsRejected() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"env\": {}}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("command");
    }

    @Test
    void paramsAsTheCompatFilesWriteThemPass() {
        assertThatCode(() -> operator.checkParams(json("{\"command\": \"printf '{\\\"n\\\": 1}'\", \"timeout\": \"1m\"}")))
                .doesNotThrowAnyException();
        assertThatCode(() -> operator.checkParams(json("{\"command\": \"printf '{\\\"n\\\": {{ upstream.first.n }}}'\"}")))
                .doesNotThrowAnyException();
        assertThatCode(() -> operator.checkParams(json(
                "{\"command\": \"x\", \"env\": {\"TOKEN\": \"{{ env.TOKEN }}\"}, \"timeout\": \"{{ env.T }}\"}")))
                .doesNotThrowAnyException();
    }
}
