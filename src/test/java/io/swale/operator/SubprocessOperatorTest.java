package io.swale.operator;

import static io.swale.operator.TestAttempts.attempt;
import static io.swale.operator.TestAttempts.json;
import static io.swale.operator.TestAttempts.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class SubprocessOperatorTest {
    private final SubprocessOperator operator = new SubprocessOperator();

    @TempDir
    Path tmp;

    private static ObjectNode sh(String script) {
        ObjectNode params = TestAttempts.JSON.createObjectNode();
        ArrayNode argv = params.putArray("argv");
        argv.add("sh").add("-c").add(script);
        return params;
    }

    private OperatorResult run(ObjectNode params) {
        return operator.execute(attempt(params).build());
    }

    private static String messageOf(OperatorResult result) {
        return switch (result) {
            case OperatorResult.PermanentError p -> p.message();
            case OperatorResult.TransientError t -> t.message();
            case OperatorResult.Failed f -> f.reason();
            default -> throw new AssertionError("not an error: " + result);
        };
    }

    @Test
    void exit0WithJsonStdoutSucceedsWithThatValue() {
        assertThat(run(sh("printf '  {\"n\": [1, 2]}\\n\\n'")))
                .isEqualTo(new OperatorResult.Succeeded(json("{\"n\":[1,2]}")));
    }

    @Test
    void exit0WithOnlyWhitespaceSucceedsWithJsonNull() {
        OperatorResult result = run(sh("printf ' \\n\\t\\r\\n'"));
        assertThat(result).isInstanceOf(OperatorResult.Succeeded.class);
        assertThat(((OperatorResult.Succeeded) result).output().isNull()).isTrue();
    }

    @Test
    void exit0WithNoStdoutSucceedsWithJsonNull() {
        OperatorResult result = run(sh("true"));
        assertThat(((OperatorResult.Succeeded) result).output().isNull()).isTrue();
    }

    @Test
    void exit0WithStdoutThatIsNotJsonIsPermanentNamingProgramAndParseError() {
        OperatorResult result = run(sh("printf 'hello world'"));
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("`sh`").contains("not JSON").contains("hello");
    }

    @Test
    void exit0WithTwoJsonValuesIsNotJson() {
        OperatorResult result = run(sh("printf '1 2'"));
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("`sh`").contains("not JSON");
    }

    @Test
    void exit75IsTransientNamingProgramCodeAndStderrTail() {
        OperatorResult result = run(sh("printf 'warehouse busy' >&2; exit 75"));
        assertThat(result).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(result)).contains("`sh`").contains("75").contains("warehouse busy");
    }

    @Test
    void otherExitCodeIsPermanentNamingProgramCodeAndStderrTail() {
        OperatorResult result = run(sh("echo 'table missing' >&2; printf '{}'; exit 3"));
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("`sh`").contains("code 3").contains("table missing");
    }

    @Test
    void exitWithoutStderrSaysSo() {
        OperatorResult result = run(sh("exit 4"));
        assertThat(messageOf(result)).contains("code 4").contains("no stderr");
    }

    @Test
    void killedBySignalIsPermanentNamingProgramAndSignal() {
        OperatorResult result = run(sh("echo 'about to die' >&2; kill -9 $$"));
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("`sh`").contains("signal 9").contains("about to die");
    }

    @Test
    void programThatCannotStartIsPermanentNamingProgramAndOsError() {
        ObjectNode params = object("{\"argv\": [\"/nonexistent/swale-tool\", \"x\"]}");
        OperatorResult result = run(params);
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("/nonexistent/swale-tool").contains("No such file or directory");
    }

    @Test
    void stdinHoldsTheInputDocumentWithKeysInOrder() {
        ObjectNode params = object("{\"argv\": [\"cat\"]}");
        ObjectNode inputs = object("{\"extract\": {\"rows\": 3}, \"skipped\": null}");
        OperatorResult result = operator.execute(attempt(params).inputs(inputs).attempt(2).build());

        JsonNode doc = ((OperatorResult.Succeeded) result).output();
        assertThat(new ArrayList<>(doc.propertyNames()))
                .containsExactly("run_id", "graph", "partition", "node", "attempt", "params", "inputs");
        assertThat(doc).isEqualTo(json("""
                {"run_id": "orders-20260915-load-r0", "graph": "orders", "partition": "20260915",
                 "node": "load", "attempt": 2, "params": {"argv": ["cat"]},
                 "inputs": {"extract": {"rows": 3}, "skipped": null}}"""));
    }

    @Test
    void argumentsArePassedAsWritten() {
        ObjectNode params = sh("cat >/dev/null; printf '{\"n\": %s}' \"$0\"");
        ((ArrayNode) params.get("argv")).add("41");
        assertThat(run(params)).isEqualTo(new OperatorResult.Succeeded(json("{\"n\": 41}")));
    }

    @Test
    void programRunsInTheWorkerEnvironmentOnly() {
        ObjectNode params = sh("printf '[\"%s\", \"%s\", \"%s\"]' \"$FROM_WORKER\" \"${HOME-unset}\" \"${SWALE_RUN_ID-unset}\"");
        OperatorResult result = operator.execute(attempt(params)
                .env(TestAttempts.workerEnv(java.util.Map.of("FROM_WORKER", "w1"))).build());
        assertThat(result).isEqualTo(new OperatorResult.Succeeded(json("[\"w1\", \"unset\", \"unset\"]")));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void programThatIgnoresABigStdinDocumentStillSucceeds() {
        ObjectNode params = sh("exit 0");
        params.put("timeout", "30s");
        ObjectNode inputs = TestAttempts.JSON.createObjectNode();
        inputs.put("big", "y".repeat(2 * 1024 * 1024));
        OperatorResult result = operator.execute(attempt(params).inputs(inputs).build());
        assertThat(((OperatorResult.Succeeded) result).output().isNull()).isTrue();
    }

    @Test
    void stderrTailIsItsLast512Bytes() throws IOException {
        String text = "x".repeat(600) + "END";
        Path err = tmp.resolve("stderr");
        Files.writeString(err, text);
        OperatorResult result = run(sh("cat '" + err + "' >&2; exit 3"));
        String message = messageOf(result);
        String tail = message.substring(message.indexOf("stderr tail: ") + "stderr tail: ".length());
        assertThat(tail).isEqualTo(text.substring(text.length() - 512));
        assertThat(tail.getBytes(StandardCharsets.UTF_8)).hasSize(512);
    }

    @Test
    void stderrTailIsCutAtACharacterBoundary() throws IOException {
        // 200 three-byte characters: the last 512 bytes start inside one, which is dropped whole
        Path err = tmp.resolve("stderr");
        Files.writeString(err, "€".repeat(200));
        String message = messageOf(run(sh("cat '" + err + "' >&2; exit 75")));
        String tail = message.substring(message.indexOf("stderr tail: ") + "stderr tail: ".length());
        assertThat(tail).isEqualTo("€".repeat(170));
    }

    @Test
    void invalidUtf8InStderrIsReplaced() throws IOException {
        Path err = tmp.resolve("stderr");
        Files.write(err, new byte[] {'o', 'k', (byte) 0xFF, (byte) 0xFE, '!'});
        String message = messageOf(run(sh("cat '" + err + "' >&2; exit 2")));
        assertThat(message).endsWith("stderr tail: ok\uFFFD\uFFFD!");
    }

    @Test
    void timeoutIsAcceptedOnSubprocessAndKillsTheProgram() {
        ObjectNode params = sh("sleep 300");
        params.put("timeout", "1s");
        OperatorResult result = run(params);
        assertThat(result).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(result)).contains("`sh`").contains("timeout of 1s");
    }

    @Test
    void renderedParamsThatDoNotFitArePermanent() {
        ObjectNode params = object("{\"argv\": [\"true\"], \"timeout\": \"soon\"}");
        OperatorResult result = run(params);
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("subprocess").contains("soon");
    }

    @Test
    void paramsWithAnUnknownKeyAreRejected() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"argv\": [\"true\"], \"args\": []}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("args");
    }

    @Test
    void paramsOfTheWrongTypeAreRejected() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"argv\": \"ls -l\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("argv");
        assertThatThrownBy(() -> operator.checkParams(json("{\"argv\": [\"ls\", 3]}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("argv");
        assertThatThrownBy(() -> operator.checkParams(json("[\"ls\"]")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("table");
    }

    @Test
    void missingOrEmptyArgvIsRejected() {
        assertThatThrownBy(() -> operator.checkParams(json("{}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("argv");
        assertThatThrownBy(() -> operator.checkParams(json("{\"argv\": []}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("empty");
    }

    @Test
    void templatedStringsAndTimeoutsPassTheCheck() {
        operator.checkParams(json("{\"argv\": [\"run\", \"{{ upstream.first.n }}\"], \"timeout\": \"{{ env.T }}\"}"));
        operator.checkParams(json("{\"argv\": [\"run\"], \"timeout\": \"5m\"}"));
        assertThatThrownBy(() -> operator.checkParams(json("{\"argv\": [\"run\"], \"timeout\": \"5 m\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("`5 m`").hasMessageContaining("30s");
    }

    @Test
    void inputDocumentKeysAreInSpecOrder() {
        ObjectNode doc = SubprocessOperator.inputDocument(attempt(json("{\"argv\": [\"x\"]}")).build());
        assertThat(List.copyOf(doc.propertyNames()))
                .containsExactly("run_id", "graph", "partition", "node", "attempt", "params", "inputs");
    }
}
