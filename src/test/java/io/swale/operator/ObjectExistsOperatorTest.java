package io.swale.operator;

import static io.swale.operator.TestAttempts.attempt;
import static io.swale.operator.TestAttempts.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class ObjectExistsOperatorTest {
    private final ObjectExistsOperator operator = new ObjectExistsOperator(S3Settings.DEFAULT);

    @TempDir
    Path tmp;

    private static ObjectNode params(String url) {
        ObjectNode params = TestAttempts.JSON.createObjectNode();
        params.put("url", url);
        return params;
    }

    private static String messageOf(OperatorResult result) {
        return switch (result) {
            case OperatorResult.PermanentError p -> p.message();
            case OperatorResult.TransientError t -> t.message();
            case OperatorResult.Failed f -> f.reason();
            default -> throw new AssertionError("not an error: " + result);
        };
    }

    /** A Continue with state {@code {"deadline_ms": deadline}} after {@code delay}. */
    private static void assertContinues(OperatorResult result, long deadline, Duration delay) {
        assertThat(result).isInstanceOf(OperatorResult.Continue.class);
        OperatorResult.Continue next = (OperatorResult.Continue) result;
        assertThat(next.delay()).isEqualTo(delay);
        assertThat(next.state().toString()).isEqualTo("{\"deadline_ms\":" + deadline + "}");
    }

    @Test
    void existingFileSucceedsWithUrlSizeAndLastModifiedToTheSecond() throws IOException {
        Path file = tmp.resolve("orders 20260915.parquet");
        Files.writeString(file, "PAR1x");
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2026-09-15T01:02:03.456Z")));
        String url = file.toUri().toString();

        OperatorResult result = operator.execute(attempt(params(url)).build());

        ObjectNode expected = TestAttempts.JSON.createObjectNode();
        expected.put("url", url);
        expected.put("size", 5L);
        expected.put("last_modified", "2026-09-15T01:02:03Z");
        assertThat(result).isEqualTo(new OperatorResult.Succeeded(expected));
        assertThat(url).contains("%20");
    }

    @Test
    void absentOnTheFirstPollContinuesWithTheDeadlineAfterTheInterval() {
        ObjectNode params = params(tmp.resolve("absent").toUri().toString());
        params.put("interval", "5m");
        params.put("timeout", "6h");
        OperatorResult result = operator.execute(attempt(params).nowMs(1_000L).build());
        assertContinues(result, 1_000L + 6 * 3_600_000L, Duration.ofMinutes(5));
    }

    @Test
    void defaultsAreAMinuteIntervalAndADayTimeout() {
        OperatorResult result = operator.execute(attempt(params(tmp.resolve("absent").toUri().toString()))
                .nowMs(5_000L).build());
        assertContinues(result, 5_000L + 86_400_000L, Duration.ofSeconds(60));
    }

    @Test
    void laterPollsKeepTheDeadlineFromTheState() {
        ObjectNode params = params(tmp.resolve("absent").toUri().toString());
        params.put("timeout", "10s");
        OperatorResult result = operator.execute(attempt(params).nowMs(50_000L)
                .state(json("{\"deadline_ms\": 60000}")).build());
        assertContinues(result, 60000L, Duration.ofSeconds(60));
    }

    @Test
    void absentAtTheDeadlineFailsNamingUrlAndTimeoutSeconds() {
        String url = tmp.resolve("absent").toUri().toString();
        ObjectNode params = params(url);
        params.put("timeout", "6h");
        OperatorResult result = operator.execute(attempt(params).nowMs(60_000L)
                .state(json("{\"deadline_ms\": 60000}")).build());
        assertThat(result).isInstanceOf(OperatorResult.Failed.class);
        assertThat(messageOf(result)).contains(url).contains("21600 s");

        params.put("timeout", "0s");
        assertThat(operator.execute(attempt(params).nowMs(7L).build())).isInstanceOf(OperatorResult.Failed.class);
    }

    @Test
    void aFileAppearingBetweenPollsSucceeds() throws IOException {
        Path file = tmp.resolve("late");
        ObjectNode params = params(file.toUri().toString());
        assertThat(operator.execute(attempt(params).build())).isInstanceOf(OperatorResult.Continue.class);
        Files.writeString(file, "{}");
        OperatorResult second = operator.execute(attempt(params).state(json("{\"deadline_ms\": 99999999}")).build());
        assertThat(second).isInstanceOf(OperatorResult.Succeeded.class);
        assertThat(((OperatorResult.Succeeded) second).output().get("size").asLong()).isEqualTo(2L);
    }

    @Test
    void aDirectoryIsNotAnObject() {
        OperatorResult result = operator.execute(attempt(params(tmp.toUri().toString())).build());
        assertThat(result).isInstanceOf(OperatorResult.Continue.class);
    }

    @Test
    void deadlineSaturates() {
        ObjectNode params = params(tmp.resolve("absent").toUri().toString());
        params.put("timeout", "18446744073709551615s");
        OperatorResult result = operator.execute(attempt(params).nowMs(1_000L).build());
        assertContinues(result, Long.MAX_VALUE, Duration.ofSeconds(60));
    }

    @Test
    void cloudSchemesWithoutClientsArePermanent() {
        for (String url : new String[] {"gs://b/k", "az://c/k"}) {
            OperatorResult result = operator.execute(attempt(params(url)).build());
            assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
            assertThat(messageOf(result)).contains(url).contains("unsupported scheme").contains("not built yet");
        }
        OperatorResult noKey = operator.execute(attempt(params("s3://bucket-only")).build());
        assertThat(noKey).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(noKey)).contains("s3://bucket-only").contains("s3://bucket/key");
        OperatorResult ftp = operator.execute(attempt(params("ftp://host/file")).build());
        assertThat(messageOf(ftp)).contains("ftp://host/file").contains("unsupported scheme `ftp`");
    }

    /**
     * A rendered value may put a space into the path, as swale's URL parser takes it (encoded, and decoded again
     * into the file's name or the object's key). Was: "does not parse", a permanent error.
     */
    @Test
    void aFileUrlWithARawSpaceIsCheckedAsItsEncodedForm() throws IOException {
        Path file = tmp.resolve("Daily Report.csv");
        Files.writeString(file, "a,b");
        String url = "file://" + file.toAbsolutePath();
        assertThat(url).contains(" ");

        OperatorResult result = operator.execute(attempt(params(url)).build());

        assertThat(result).isInstanceOf(OperatorResult.Succeeded.class);
        assertThat(((OperatorResult.Succeeded) result).output().get("size").asLong()).isEqualTo(3L);
        assertThat(((OperatorResult.Succeeded) result).output().get("url").asString()).isEqualTo(url);
    }

    @Test
    void urlThatDoesNotParseIsPermanentNamingIt() {
        OperatorResult spaces = operator.execute(attempt(params("s3://my bucket/with space")).build());
        assertThat(spaces).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(spaces)).contains("s3://my bucket/with space").contains("does not parse");

        OperatorResult relative = operator.execute(attempt(params("landing/orders.parquet")).build());
        assertThat(relative).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(relative)).contains("landing/orders.parquet").contains("does not parse");
    }

    @Test
    void fileUrlWithAHostIsAStoreThatCannotBeOpened() {
        OperatorResult result = operator.execute(attempt(params("file://fileserver/share/x")).build());
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("file://fileserver/share/x").contains("cannot be opened");
    }

    @Test
    void httpObjectsAreCheckedWithHead() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/present", ex -> {
            ex.getResponseHeaders().set("Last-Modified", "Tue, 15 Sep 2026 01:02:03 GMT");
            ex.getResponseHeaders().set("Content-Length", "1234");
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.createContext("/absent", ex -> {
            ex.sendResponseHeaders(404, -1);
            ex.close();
        });
        server.createContext("/broken", ex -> {
            ex.sendResponseHeaders(500, -1);
            ex.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            OperatorResult present = operator.execute(attempt(params(base + "/present")).build());
            assertThat(present).isInstanceOf(OperatorResult.Succeeded.class);
            assertThat(((OperatorResult.Succeeded) present).output().toString()).isEqualTo("{\"url\":\"" + base
                    + "/present\",\"size\":1234,\"last_modified\":\"2026-09-15T01:02:03Z\"}");

            assertContinues(operator.execute(attempt(params(base + "/absent")).nowMs(0L).build()), 86_400_000L,
                    Duration.ofSeconds(60));

            OperatorResult broken = operator.execute(attempt(params(base + "/broken")).build());
            assertThat(broken).isInstanceOf(OperatorResult.TransientError.class);
            assertThat(messageOf(broken)).contains(base + "/broken").contains("500");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void renderedParamsThatDoNotFitArePermanent() {
        ObjectNode params = params("file:///x");
        params.put("interval", "{{ env.I }}");
        OperatorResult result = operator.execute(attempt(params).build());
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("object_exists").contains("{{ env.I }}");
    }

    @Test
    void paramsAreStrict() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"s3://b/k\", \"poll\": \"1m\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("poll");
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": [\"s3://b/k\"]}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("url");
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"s3://b/k\", \"interval\": 300}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("interval");
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"s3://b/k\", \"timeout\": \"7w\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("`7w`");
        assertThatThrownBy(() -> operator.checkParams(json("{\"interval\": \"5m\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("url");
        assertThatCode(() -> operator.checkParams(json(
                "{\"url\": \"s3://landing/orders/{{ partition }}.parquet\", \"interval\": \"5m\", \"timeout\": \"6h\"}")))
                .doesNotThrowAnyException();
    }
}
