package io.swale.it;

import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.record.GraphRunRecord;
import io.swale.record.RunState;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * One application context for every integration test: the real embedded Kafka broker and redis-server
 * (local mode), a clock the tests move, and the periodic cron pump and retention jobs paced so slowly that
 * only the tests drive them. Each test uses graph names of its own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=",
        "swale.scheduler.cron-tick=1d",
        "swale.scheduler.retention-interval=1d",
        "swale.kafka.listener-concurrency=2"})
@Import(TestClockConfiguration.class)
public abstract class IntegrationSupport {
    protected static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** An HTTP answer: status and parsed JSON body (null when empty). */
    protected record Answer(int status, JsonNode body) {}

    @Autowired
    protected MutableClock clock;

    @Autowired
    protected RunStore runs;

    @LocalServerPort
    private int port;

    /** A POST: a definition (TOML) to /definitions, JSON anywhere else. */
    protected Answer post(String path, String body) {
        String type = path.startsWith("/api/v1/definitions") ? "application/toml" : "application/json";
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build());
    }

    protected Answer get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET().build());
    }

    /** Publishes through the API (this replica is a scheduler, so the definition is adopted at once); returns the hash. */
    protected String publish(String toml) {
        Answer a = post("/api/v1/definitions", toml);
        if (a.status() != 201) {
            throw new AssertionError("publish failed: " + a);
        }
        return a.body().get("hash").asString();
    }

    protected Optional<GraphRunRecord> run(String graph, String partition) {
        return runs.read(new RunKey(graph, Partition.of(partition))).map(RunView::run);
    }

    protected List<String> partitions(String graph) {
        return runs.partitions(graph, Optional.empty(), 1000).stream()
                .filter(p -> run(graph, p.key()).isPresent()).map(Partition::key).toList();
    }

    protected GraphRunRecord awaitRun(String graph, String partition) {
        await().atMost(WAIT).until(() -> run(graph, partition).isPresent());
        return run(graph, partition).orElseThrow();
    }

    protected GraphRunRecord awaitSettled(String graph, String partition, RunState state) {
        await().atMost(WAIT).until(() -> run(graph, partition).map(GraphRunRecord::state).orElse(null) == state);
        return run(graph, partition).orElseThrow();
    }

    /** A daily graph of two noop nodes producing assets named after the graph. */
    protected static String dailyGraph(String name, Optional<String> schedule, Optional<String> catchup) {
        return graph(name, "daily", schedule, catchup, "");
    }

    protected static String graph(String name, String partitioning, Optional<String> schedule, Optional<String> catchup,
            String comment) {
        return "# " + comment + "\n[graph]\nname = \"" + name + "\"\npartition = \"" + partitioning + "\"\n"
                + schedule.map(s -> "schedule = \"" + s + "\"\n").orElse("")
                + catchup.map(c -> "catchup = \"" + c + "\"\n").orElse("")
                + "\n[[node]]\nname = \"extract\"\nproduces = \"" + name + "_raw\"\noperator = \"noop\"\n[node.params]\n"
                + "\n[[node]]\nname = \"load\"\nproduces = \"" + name + "_loaded\"\nconsumes = [\"" + name
                + "_raw\"]\noperator = \"noop\"\n[node.params]\n";
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private static Answer send(HttpRequest request) {
        try {
            HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body() == null || r.body().isBlank() ? null : JSON.readTree(r.body()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
