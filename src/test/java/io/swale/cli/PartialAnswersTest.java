package io.swale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Spec §13: errors go to stderr, and a node's error is one `{node}: {error}` line. Was: `queues` printed Kafka's
 * failure on stdout and exited 0 with a table of `-`, and a program's stderr tail of several lines printed lines
 * that read as other nodes' errors.
 */
class PartialAnswersTest {
    private static final Map<String, String> ANSWERS = Map.of(
            "/api/v1/queues", """
                    [{"queue":"events","pending":null,"delayed":null,"running":null,"consumed":null,"deadLetters":null,
                      "lag":null,"group":"swale-scheduler","kafkaError":"Kafka did not answer within 5s"}]""",
            "/api/v1/graphs/g/runs/p", """
                    {"graph":"g","partition":"p","state":"failed","requestedAt":"2026-12-01T00:00:00Z",
                     "definition":"abcdef0123456789","nodes":[{"name":"load","pool":"default","state":"failed",
                     "record":{"runId":"g-p-load-r0","terminatedAt":"2026-12-01T00:00:01Z",
                     "error":"exit status 3\\nx: y"},"instance":null}]}""");
    private HttpServer server;

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] bytes = ANSWERS.getOrDefault(exchange.getRequestURI().getPath(), "{}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private record Ran(int code, String out, String err) {}

    private Ran run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] withUrl = java.util.Arrays.copyOf(args, args.length + 1);
        withUrl[args.length] = "--url=http://127.0.0.1:" + server.getAddress().getPort();
        int code = SwaleCli.execute(withUrl, new PrintWriter(out), new PrintWriter(err));
        return new Ran(code, out.toString(), err.toString());
    }

    @Test
    void queuesWhoseKafkaFiguresAreMissingSayWhyOnStderrAndExitOne() {
        Ran r = run("queues");

        assertThat(r.code()).isEqualTo(SwaleCli.FAILED);
        assertThat(r.out()).contains("events").doesNotContain("Kafka did not answer");
        assertThat(r.err()).contains("error: events: Kafka did not answer within 5s");
    }

    @Test
    void anErrorOfSeveralLinesHasItsLaterLinesIndented() {
        Ran r = run("status", "g", "p");

        assertThat(r.code()).isEqualTo(SwaleCli.OK);
        assertThat(r.out()).contains("load: exit status 3\n    x: y").doesNotContain("\nx: y");
    }
}
