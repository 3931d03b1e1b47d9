package io.swale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A command pointed at a server that is not the service (a proxy's login page, a wrong --url) says so and exits 1,
 * where a success that was not JSON read as an empty table, and a wait as a settled run, and exited 0.
 */
class NotTheServiceTest {
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private HttpServer server;
    /** What a GET of the run answers: a page, or JSON with no run in it. */
    private volatile String runAnswer = "<html><body>Sign in</body></html>";

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            asked.add(exchange.getRequestMethod() + " " + path);
            String body;
            String type;
            int status = 200;
            if (exchange.getRequestMethod().equals("POST") && path.equals("/api/v1/graphs/g/runs")) {
                status = 201;
                type = "application/json";
                body = "{\"requestId\":\"r1\",\"started\":[\"p\"]}";
            } else if (path.equals("/api/v1/graphs/g/runs/p")) {
                type = runAnswer.startsWith("<") ? "text/html" : "application/json";
                body = runAnswer;
            } else {
                type = "text/html";
                body = "<html><body>Sign in</body></html>";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String url() {
        return "--url=http://127.0.0.1:" + server.getAddress().getPort();
    }

    private record Ran(int code, String out, String err) {}

    private static Ran run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SwaleCli.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Ran(code, out.toString(), err.toString());
    }

    @Test
    void aWaitWhosePollIsAnsweredWithAPageFailsAndSaysWhy() {
        Ran r = run("start", "g", "p", "--wait", "--timeout", "30s", url());

        assertThat(r.code()).as(r.err()).isEqualTo(SwaleCli.FAILED);
        assertThat(r.out()).contains("started p").doesNotContain("run g/p");
        assertThat(r.err()).contains("/api/v1/graphs/g/runs/p").contains("is not JSON").contains("Sign in")
                .contains("--url");
    }

    @Test
    void aWaitAnsweredWithJsonThatHoldsNoRunFailsRatherThanCallingTheRunSettled() {
        runAnswer = "{}";
        Ran r = run("start", "g", "p", "--wait", "--timeout", "30s", url());

        assertThat(r.code()).as(r.err()).isEqualTo(SwaleCli.FAILED);
        assertThat(r.err()).contains("run g/p").contains("no run state");
    }

    @Test
    void statusAndQueuesAnsweredWithAPageFailInsteadOfPrintingEmptyTables() {
        for (String command : new String[] {"status", "queues"}) {
            Ran r = run(command, url());
            assertThat(r.code()).as(command + ": " + r.out()).isEqualTo(SwaleCli.FAILED);
            assertThat(r.err()).as(command).contains("is not JSON");
        }
    }

    @Test
    void aBadIdempotencyKeyIsAUsageErrorAndNothingIsSent() {
        for (String[] args : List.of(new String[] {"start", "g", "p"}, new String[] {"rerun", "g", "p", "n"},
                new String[] {"cancel", "g", "p"})) {
            for (String key : new String[] {"bad key!", "k".repeat(65), ""}) {
                String[] withKey = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                        java.util.stream.Stream.of("--idempotency-key", key, url())).toArray(String[]::new);
                Ran r = run(withKey);
                assertThat(r.code()).as(String.join(" ", withKey)).isEqualTo(SwaleCli.USAGE);
                assertThat(r.err()).contains("--idempotency-key").contains("[A-Za-z0-9_-]");
            }
        }
        assertThat(asked).isEmpty();
        assertThat(run("cancel", "g", "p", "--idempotency-key", "k".repeat(64), url()).code())
                .isEqualTo(SwaleCli.FAILED);
        assertThat(asked).containsExactly("POST /api/v1/graphs/g/runs/p/cancel");
    }
}
