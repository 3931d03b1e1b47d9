package io.swale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code swale status GRAPH} shows the graph's last runs even when they take more than one page of the API. */
class StatusPagesTest {
    private static final List<String> PARTITIONS = IntStream.rangeClosed(1, 7).mapToObj(i -> "p0" + i).toList();

    private final List<String> asked = new ArrayList<>();
    private HttpServer server;

    @BeforeEach
    void serveRunsAPageAtATime() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        // as the API does: runs in partition order from `from` (inclusive), at most `limit`
        server.createContext("/api/v1/graphs/g/runs", exchange -> {
            String query = exchange.getRequestURI().getQuery();
            asked.add(query);
            Map<String, String> q = List.of(query.split("&")).stream().map(p -> p.split("=", 2))
                    .collect(Collectors.toMap(p -> p[0], p -> p[1]));
            String page = PARTITIONS.stream().filter(p -> p.compareTo(q.getOrDefault("from", "")) >= 0)
                    .limit(Integer.parseInt(q.get("limit")))
                    .map(p -> "{\"partition\":\"" + p + "\",\"state\":\"complete\",\"requestedAt\":"
                            + "\"2026-09-15T02:00:00Z\",\"definition\":\"0123456789abcdef\"}")
                    .collect(Collectors.joining(",", "[", "]"));
            byte[] body = page.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void theLastRunsAreThoseOfTheLastPage() {
        StringWriter out = new StringWriter();
        int code = status(3, out, "g", "--limit", "4");

        assertThat(code).isZero();
        assertThat(out.toString().lines().skip(1).map(l -> l.split(" ")[0]).toList())
                .containsExactly("p04", "p05", "p06", "p07");
        assertThat(asked).containsExactly("limit=3", "limit=3&from=p03", "limit=3&from=p05", "limit=3&from=p07");
    }

    @Test
    void aGraphWithFewerRunsThanAPageTakesOneRequest() {
        StringWriter out = new StringWriter();
        int code = status(10, out, "g", "--limit", "2");

        assertThat(code).isZero();
        assertThat(out.toString().lines().skip(1).map(l -> l.split(" ")[0]).toList()).containsExactly("p06", "p07");
        assertThat(asked).containsExactly("limit=10");
    }

    private int status(int pageSize, StringWriter out, String... args) {
        CommandLine cli = new CommandLine(new SwaleCli());
        ((StatusCommand) cli.getSubcommands().get("status").getCommand()).pageSize = pageSize;
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        List<String> all = new ArrayList<>(List.of("status"));
        all.addAll(List.of(args));
        all.add("--url=http://127.0.0.1:" + server.getAddress().getPort());
        return cli.execute(all.toArray(String[]::new));
    }
}
