package io.swale.operator;

import static io.swale.operator.TestAttempts.attempt;
import static io.swale.operator.TestAttempts.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class HttpOperatorTest {
    private final HttpOperator operator = new HttpOperator(HostGuards.NONE);
    private HttpServer server;
    private ExecutorService executor;
    private String base;
    private final AtomicInteger flakyCalls = new AtomicInteger();
    private final AtomicReference<String> seen = new AtomicReference<>();
    private final CountDownLatch slowArrived = new CountDownLatch(1);
    private final CountDownLatch releaseSlow = new CountDownLatch(1);

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        executor = Executors.newCachedThreadPool();
        server.setExecutor(executor);
        server.createContext("/flaky", ex -> {
            if (flakyCalls.incrementAndGet() == 1) {
                respond(ex, 503, "warehouse restarting");
            } else {
                respond(ex, 200, "{\"loaded\": true}");
            }
        });
        server.createContext("/missing", ex -> respond(ex, 404, "no such table"));
        server.createContext("/limited", ex -> respond(ex, 429, "slow down"));
        server.createContext("/teapot", ex -> respond(ex, 418, "x".repeat(700) + "TAIL"));
        server.createContext("/not-modified", ex -> respond(ex, 304, ""));
        server.createContext("/redirect", ex -> {
            ex.getResponseHeaders().set("Location", "/json");
            respond(ex, 302, "");
        });
        server.createContext("/loop", ex -> {
            ex.getResponseHeaders().set("Location", "/loop");
            respond(ex, 302, "");
        });
        server.createContext("/moved-nowhere", ex -> respond(ex, 302, "moved"));
        server.createContext("/hop/", ex -> {
            int left = Integer.parseInt(ex.getRequestURI().getPath().substring("/hop/".length()));
            ex.getResponseHeaders().set("Location", left == 0 ? "/json" : "/hop/" + (left - 1));
            respond(ex, 302, "");
        });
        server.createContext("/see-other", ex -> {
            ex.getResponseHeaders().set("Location", "/echo");
            respond(ex, 303, "");
        });
        server.createContext("/temporary", ex -> {
            ex.getResponseHeaders().set("Location", "/echo");
            respond(ex, 307, "");
        });
        server.createContext("/json", ex -> respond(ex, 200, "  \n{\"rows\": 3, \"key\": \"a/b\"}\n"));
        server.createContext("/text", ex -> respond(ex, 200, "loaded 3 rows\n"));
        server.createContext("/files", ex -> {
            seen.set(ex.getRequestURI().getRawPath() + "?" + ex.getRequestURI().getRawQuery());
            respond(ex, 200, "");
        });
        server.createContext("/empty", ex -> respond(ex, 200, ""));
        server.createContext("/latin1", ex -> {
            ex.getResponseHeaders().set("Content-Type", "text/plain; charset=ISO-8859-1");
            byte[] body = "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/echo", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.set(ex.getRequestMethod() + " " + ex.getRequestHeaders().getFirst("X-Token") + " " + body);
            respond(ex, 201, "{\"method\": \"" + ex.getRequestMethod() + "\"}");
        });
        server.createContext("/slow", ex -> {
            slowArrived.countDown();
            try {
                releaseSlow.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(ex, 200, "late");
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopServer() {
        releaseSlow.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private static void respond(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private ObjectNode get(String path) {
        ObjectNode params = TestAttempts.JSON.createObjectNode();
        params.put("url", base + path);
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

    @Test
    void serviceUnavailableIsTransientThenTheRetrySucceeds() {
        OperatorResult first = run(get("/flaky"));
        assertThat(first).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(first)).contains("GET " + base + "/flaky").contains("503").contains("warehouse restarting");

        assertThat(run(get("/flaky")))
                .isEqualTo(new OperatorResult.Succeeded(json("{\"status\": 200, \"body\": {\"loaded\": true}}")));
    }

    @Test
    void notFoundIsPermanentNamingMethodUrlCodeAndBody() {
        OperatorResult result = run(get("/missing"));
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("GET " + base + "/missing").contains("404").contains("no such table");
    }

    @Test
    void tooManyRequestsIsTransient() {
        OperatorResult result = run(get("/limited"));
        assertThat(result).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(result)).contains("429").contains("slow down");
    }

    @Test
    void aBodyLongerThanWhatIsHeldSucceedsWithItsOutputOmittedAndAnErrorKeepsItsTail() {
        HttpOperator holdingOneKilobyte = new HttpOperator(HostGuards.NONE, 1024);
        server.createContext("/at-limit", ex -> respond(ex, 200, "\"" + "a".repeat(1022) + "\""));
        server.createContext("/over-limit", ex -> respond(ex, 200, "\"" + "a".repeat(1023) + "\""));
        server.createContext("/long-error", ex -> respond(ex, 500, "y".repeat(20_000) + "END"));

        OperatorResult atLimit = holdingOneKilobyte.execute(attempt(get("/at-limit")).build());
        assertThat(atLimit).isEqualTo(new OperatorResult.Succeeded(
                json("{\"status\": 200, \"body\": \"" + "a".repeat(1022) + "\"}")));
        assertThat(holdingOneKilobyte.execute(attempt(get("/over-limit")).build()))
                .isEqualTo(OperatorResult.Succeeded.omitted());
        String message = messageOf(holdingOneKilobyte.execute(attempt(get("/long-error")).build()));
        assertThat(message).contains("500").endsWith("y".repeat(509) + "END").doesNotContain("y".repeat(510));
    }

    @Test
    void errorBodyIsCutToItsLast512Bytes() {
        String message = messageOf(run(get("/teapot")));
        assertThat(message).contains("418").endsWith("x".repeat(508) + "TAIL").doesNotContain("x".repeat(509));
    }

    @Test
    void finalRedirectionStatusIsPermanent() {
        OperatorResult result = run(get("/not-modified"));
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("304");
    }

    @Test
    void redirectsAreFollowed() {
        assertThat(run(get("/redirect"))).isEqualTo(new OperatorResult.Succeeded(
                json("{\"status\": 200, \"body\": {\"rows\": 3, \"key\": \"a/b\"}}")));
    }

    @Test
    void aRedirectLeftUnfollowedIsPermanentAndNamesWhereItLeads() {
        OperatorResult result = run(get("/loop"));
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("GET " + base + "/loop").contains("HTTP status 302")
                .contains("a redirect to " + base + "/loop that was not followed");
    }

    /**
     * A 3xx without a `Location` is a final response: permanent, with its code and body (spec §8.5). Was: the JDK's
     * client threw "Invalid redirection", judged transient, so the attempt was retried and the code never named.
     */
    @Test
    void aRedirectWithoutALocationIsAPermanentErrorWithItsCodeAndBody() {
        OperatorResult result = run(get("/moved-nowhere"));
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("HTTP status 302").contains("moved");
    }

    /** Ten redirects in a row are followed (the JDK's client stopped after four); the eleventh is not. */
    @Test
    void upToTenRedirectsAreFollowed() {
        assertThat(run(get("/hop/9"))).isInstanceOf(OperatorResult.Succeeded.class);
        OperatorResult tooMany = run(get("/hop/10"));
        assertThat(tooMany).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(tooMany)).contains("a redirect to " + base + "/json that was not followed");
    }

    /** 303 turns a POST into a GET without its body; 307 sends the same method and body again. */
    @Test
    void aSeeOtherBecomesAGetAndATemporaryRedirectKeepsTheMethodAndBody() {
        ObjectNode params = get("/see-other");
        params.put("method", "POST");
        params.put("body", "rows=3");
        params.putObject("headers").put("X-Token", "t1");
        assertThat(run(params)).isEqualTo(new OperatorResult.Succeeded(
                json("{\"status\": 201, \"body\": {\"method\": \"GET\"}}")));
        assertThat(seen.get()).isEqualTo("GET t1 ");

        params.put("url", base + "/temporary");
        assertThat(run(params)).isEqualTo(new OperatorResult.Succeeded(
                json("{\"status\": 201, \"body\": {\"method\": \"POST\"}}")));
        assertThat(seen.get()).isEqualTo("POST t1 rows=3");
    }

    /** Credentials go to the origin they were written for only: a redirect to another one drops them. */
    @Test
    void aRedirectToAnotherOriginDropsTheCredentials() throws IOException {
        HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicReference<String> arrived = new AtomicReference<>();
        other.createContext("/there", ex -> {
            arrived.set(ex.getRequestHeaders().getFirst("Authorization") + " " + ex.getRequestHeaders().getFirst("X-Token"));
            respond(ex, 200, "");
        });
        other.start();
        try {
            server.createContext("/elsewhere", ex -> {
                ex.getResponseHeaders().set("Location", "http://127.0.0.1:" + other.getAddress().getPort() + "/there");
                respond(ex, 302, "");
            });
            ObjectNode params = get("/elsewhere");
            params.putObject("headers").put("Authorization", "Bearer secret").put("X-Token", "t1");
            assertThat(run(params)).isInstanceOf(OperatorResult.Succeeded.class);
            assertThat(arrived.get()).isEqualTo("null t1");
        } finally {
            other.stop(0);
        }
    }

    /**
     * A redirect to another host meets that host's guard: its refusal stops the request there, and its 5xx counts
     * against it, not against the host that redirected. Was: only the first host was guarded. A redirect to the
     * same host takes no second permit.
     */
    @Test
    void eachHopOfARedirectGoesThroughTheGuardOfItsOwnHost() throws IOException {
        HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicInteger otherCalls = new AtomicInteger();
        other.createContext("/down", ex -> {
            otherCalls.incrementAndGet();
            respond(ex, 503, "down");
        });
        other.start();
        String first = "127.0.0.1:" + server.getAddress().getPort();
        String second = "127.0.0.1:" + other.getAddress().getPort();
        try {
            server.createContext("/to-other", ex -> {
                ex.getResponseHeaders().set("Location", "http://" + second + "/down");
                respond(ex, 307, "");
            });
            List<String> calls = new CopyOnWriteArrayList<>();
            HttpOperator guarded = new HttpOperator(recording(calls, host -> Optional.empty()));

            OperatorResult failed = guarded.execute(attempt(get("/to-other")).build());

            assertThat(failed).isInstanceOf(OperatorResult.TransientError.class);
            assertThat(calls).containsExactly(first + " succeeded", second + " failed");

            // hops to one host are one call of its guard: one permit, judged by the answer the chain ends with
            calls.clear();
            assertThat(guarded.execute(attempt(get("/redirect")).build())).isInstanceOf(OperatorResult.Succeeded.class);
            assertThat(calls).containsExactly(first + " succeeded");

            calls.clear();
            HttpOperator refusing = new HttpOperator(recording(calls,
                    host -> host.equals(second) ? Optional.of("the circuit breaker of host " + host + " is OPEN")
                            : Optional.empty()));

            OperatorResult refused = refusing.execute(attempt(get("/to-other")).build());

            assertThat(refused).isInstanceOf(OperatorResult.TransientError.class);
            assertThat(messageOf(refused)).contains("the circuit breaker of host " + second + " is OPEN");
            assertThat(calls).containsExactly(first + " succeeded");
            assertThat(otherCalls).hasValue(1);
        } finally {
            other.stop(0);
        }
    }

    /** Guards that refuse as {@code refusal} says and write down each outcome as "host outcome". */
    private static HostGuards recording(List<String> calls, Function<String, Optional<String>> refusal) {
        return host -> new HostGuards.Guard() {
            @Override
            public Optional<String> refusal() {
                return refusal.apply(host);
            }

            @Override
            public void succeeded(long nanos) {
                calls.add(host + " succeeded");
            }

            @Override
            public void failed(long nanos, Throwable why) {
                calls.add(host + " failed");
            }

            @Override
            public void released() {
                calls.add(host + " released");
            }
        };
    }

    /**
     * A value rendered into a URL as it is (a space, a pipe) is sent percent-encoded, as swale's URL parser does.
     * Was: "the request cannot be built", a permanent error, for a URL swale fetched.
     */
    @Test
    void aUrlWithRawSpacesIsSentPercentEncoded() {
        assertThat(run(get("/files/Q3 summary.pdf?tag=a b|c")))
                .isEqualTo(new OperatorResult.Succeeded(json("{\"status\": 200, \"body\": null}")));
        assertThat(seen.get()).isEqualTo("/files/Q3%20summary.pdf?tag=a%20b%7Cc");
    }

    @Test
    void bodyIsJsonWhenItParsesElseTextElseNull() {
        assertThat(run(get("/text")))
                .isEqualTo(new OperatorResult.Succeeded(json("{\"status\": 200, \"body\": \"loaded 3 rows\\n\"}")));
        assertThat(run(get("/empty")))
                .isEqualTo(new OperatorResult.Succeeded(json("{\"status\": 200, \"body\": null}")));
        assertThat(run(get("/latin1")))
                .isEqualTo(new OperatorResult.Succeeded(json("{\"status\": 200, \"body\": \"caf\u00e9\"}")));
    }

    @Test
    void methodIsSentAsWrittenWithHeadersAndBody() {
        ObjectNode params = get("/echo");
        params.put("method", "post");
        params.set("headers", json("{\"X-Token\": \"secret\", \"Content-Type\": \"application/json\"}"));
        params.put("body", "{\"partition\": \"20260915\"}");
        OperatorResult result = run(params);
        assertThat(result).isEqualTo(new OperatorResult.Succeeded(json("{\"status\": 201, \"body\": {\"method\": \"post\"}}")));
        assertThat(seen.get()).isEqualTo("post secret {\"partition\": \"20260915\"}");
    }

    @Test
    void timeoutCoversTheWholeRequestAndIsTransient() {
        ObjectNode params = get("/slow");
        params.put("timeout", "1s");
        long start = System.nanoTime();
        OperatorResult result = run(params);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(result).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(result)).contains("GET " + base + "/slow").contains("timeout of 1s");
    }

    @Test
    void cancellationAbandonsTheRequest() throws Exception {
        Cancellation cancellation = new Cancellation();
        CompletableFuture<OperatorResult> result = CompletableFuture.supplyAsync(
                () -> operator.execute(attempt(get("/slow")).cancellation(cancellation).build()));
        await().atMost(Duration.ofSeconds(10)).until(() -> slowArrived.getCount() == 0);
        cancellation.cancel("run cancelled by admin");
        OperatorResult ended = result.get(2, TimeUnit.SECONDS);
        assertThat(ended).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(ended)).contains("cancelled").contains("run cancelled by admin").contains("/slow");
    }

    @Test
    void connectionFailureIsTransientNamingTheCause() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        ObjectNode params = TestAttempts.JSON.createObjectNode();
        params.put("url", "http://127.0.0.1:" + port + "/load");
        OperatorResult result = run(params);
        assertThat(result).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(messageOf(result)).contains("GET http://127.0.0.1:" + port + "/load").contains("cannot connect");
    }

    @Test
    void requestThatCannotBeBuiltIsPermanentNamingTheCause() {
        ObjectNode spaces = TestAttempts.JSON.createObjectNode();
        spaces.put("url", "http://ware house.example/load");
        OperatorResult invalid = run(spaces);
        assertThat(invalid).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(invalid)).contains("GET http://ware house.example/load").contains("Illegal character");

        ObjectNode ftp = TestAttempts.JSON.createObjectNode();
        ftp.put("url", "ftp://files.example/x");
        ftp.put("method", "PUT");
        OperatorResult scheme = run(ftp);
        assertThat(scheme).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(scheme)).contains("PUT ftp://files.example/x").contains("cannot be built");
    }

    @Test
    void renderedParamsThatDoNotFitArePermanent() {
        ObjectNode params = get("/json");
        params.put("timeout", "soon");
        OperatorResult result = run(params);
        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("http").contains("soon");
    }

    @Test
    void paramsWithAnUnknownKeyAreRejected() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"https://x\", \"retries\": 2}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("retries");
    }

    @Test
    void paramsOfTheWrongTypeAreRejected() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": 7}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("url");
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"https://x\", \"headers\": {\"A\": true}}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("headers.A");
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"https://x\", \"body\": {\"a\": 1}}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("body");
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"https://x\", \"method\": \"GE T\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("GE T");
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"https://x\", \"timeout\": \"10 m\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("`10 m`");
    }

    /** Was: loaded, then every run dead-lettered with "restricted header name". */
    @Test
    void aHeaderTheClientSetsItselfIsRejectedAtLoad() {
        for (String name : List.of("Host", "connection", "Content-Length", "Expect", "Upgrade")) {
            assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"https://x\", \"headers\": {\"" + name
                    + "\": \"v\"}}"))).isInstanceOf(InvalidParamsException.class)
                    .hasMessageContaining("headers." + name).hasMessageContaining("cannot be set");
        }
        operator.checkParams(json("{\"url\": \"https://x\", \"headers\": {\"X-Host\": \"v\"}}"));
    }

    /** Was: `José` went out as `Jos?` (the client writes header values as ASCII), and the request succeeded. */
    @Test
    void aHeaderValueOutsideAsciiIsRefusedAtLoadAndWhenRendered() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"url\": \"https://x\", \"headers\": {\"X-Author\": "
                + "\"José\"}}"))).isInstanceOf(InvalidParamsException.class)
                .hasMessageContaining("headers.X-Author").hasMessageContaining("U+00E9");
        operator.checkParams(json("{\"url\": \"https://x\", \"headers\": {\"X-Author\": \"{{ env.AUTHOR }}\"}}"));

        ObjectNode rendered = get("/json");
        rendered.putObject("headers").put("X-Author", "José");
        OperatorResult result = run(rendered);

        assertThat(result).isInstanceOf(OperatorResult.PermanentError.class);
        assertThat(messageOf(result)).contains("headers.X-Author").contains("ASCII");
    }

    @Test
    void missingUrlIsRejected() {
        assertThatThrownBy(() -> operator.checkParams(json("{\"method\": \"POST\"}")))
                .isInstanceOf(InvalidParamsException.class).hasMessageContaining("url");
    }

    @Test
    void paramsAsOrdersDailyWritesThemPass() {
        assertThatCode(() -> operator.checkParams(json("""
                {"method": "POST", "url": "https://warehouse.example/load",
                 "headers": {"Content-Type": "application/json", "Authorization": "Bearer {{ env.WAREHOUSE_TOKEN }}"},
                 "body": "{\\"partition\\": \\"{{ partition }}\\"}", "timeout": "10m"}"""))).doesNotThrowAnyException();
        assertThatCode(() -> operator.checkParams(json("{\"url\": \"https://x\", \"method\": \"patch\"}")))
                .doesNotThrowAnyException();
    }
}
