package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.swale.kafka.SwaleTopics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.annotation.DirtiesContext;
import redis.clients.jedis.Jedis;
import redis.embedded.RedisServer;

/**
 * Redis dies ({@code kill -9}) while runs are in flight and comes back on the same port, with its AOF, after
 * longer than the listeners' former 3 s retry budget. Meanwhile dispatches wait in the pool's topic, and triggers
 * and task-terminated events arrive. Every listener retries until Redis answers: every run completes and no
 * dead-letter topic (pool, events, triggers) holds a single letter.
 *
 * <p>A context of its own: its redis-server is replaced by the restarted one, which the context stops.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=",
        "swale.default-slots=2",
        // a result lost to the outage comes back through a short lease, not the production minute
        "swale.worker.lease=4s", "swale.worker.heartbeat=1s", "swale.worker.retry-initial=200ms",
        "swale.worker.retry-max=1s", "swale.scheduler.reap-interval=500ms", "swale.scheduler.delayed-poll=100ms",
        "swale.scheduler.reconcile-interval=5s", "swale.scheduler.stale-dispatch=10s"})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class RedisOutageIT {
    /** Longer than the 3 s after which the former error handler dead-lettered. */
    static final Duration OUTAGE = Duration.ofSeconds(6);
    static final int RUNS = 24;
    static final int TRIGGERED_DURING_OUTAGE = 4;

    @LocalServerPort
    int port;

    @Autowired
    Environment env;

    @Autowired
    ConfigurableApplicationContext context;

    @Autowired
    KafkaTemplate<String, byte[]> kafka;

    @Autowired
    SwaleTopics topics;

    @Autowired
    MeterRegistry meters;

    @Test
    void noListenerDeadLettersWhileRedisIsDownAndEveryRunCompletes(@TempDir Path aof) throws Exception {
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("outage");
        // each task takes a while and retries a lost attempt, so dispatches queue in the pool's topic
        api.publish("""
                [graph]
                name = "%1$s"
                [[node]]
                name = "extract"
                produces = "%1$s_raw"
                operator = "shell"
                retries = 5
                [node.params]
                command = "sleep 0.3; printf '{}'"
                [[node]]
                name = "load"
                produces = "%1$s_loaded"
                consumes = ["%1$s_raw"]
                operator = "shell"
                retries = 5
                [node.params]
                command = "sleep 0.3; printf '{}'"
                """.formatted(g));
        int redisPort = env.getRequiredProperty("spring.data.redis.port", Integer.class);
        persistEveryWrite(redisPort, aof);

        List<String> partitions = new ArrayList<>(IntStream.range(0, RUNS).mapToObj(i -> "p" + i).toList());
        String all = partitions.stream().map(p -> "\"" + p + "\"").collect(Collectors.joining(","));
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[" + all + "]}").body().get("started"))
                .hasSize(RUNS);
        // the outage hits runs in flight, with dispatches still waiting for a slot
        assertThat(partitions.stream().filter(p -> state(api, g, p).equals("active")).count()).isGreaterThan(RUNS / 2);

        kill(redisPort);
        // what arrives during the outage: triggers of new runs and events of the runs in flight
        for (int i = 0; i < TRIGGERED_DURING_OUTAGE; i++) {
            String p = "t" + i;
            partitions.add(p);
            send(topics.triggers(), g, "{\"graph\":\"" + g + "\",\"partitions\":[\"" + p + "\"]}");
            send(topics.events(), g + "/p" + i, "{\"graph\":\"" + g + "\",\"partition\":\"p" + i
                    + "\",\"node\":\"extract\",\"status\":\"succeeded\"}");
        }
        await().during(OUTAGE).atMost(OUTAGE.plusSeconds(5)).until(() -> !answers(redisPort));
        restart(redisPort, aof);

        try {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> partitions.stream()
                    .allMatch(p -> state(api, g, p).equals("complete")));
        } catch (ConditionTimeoutException e) {
            Map<String, String> states = partitions.stream()
                    .collect(Collectors.toMap(p -> p, p -> state(api, g, p), (a, b) -> a, LinkedHashMap::new));
            throw new AssertionError("not every run completed: " + states + "; dead letters: " + deadLetters(), e);
        }
        assertThat(deadLetters()).as("letters per dead-letter topic").allSatisfy((topic, n) -> assertThat(n)
                .as(topic).isZero());
        // the outage was seen: the triggers sent during it were retried until Redis answered
        Counter retried = meters.find("swale.listener.retries").tag("topic", topics.triggers())
                .tag("cause", "unavailable").counter();
        assertThat(retried).isNotNull();
        assertThat(retried.count()).isPositive();
    }

    private String state(SwaleClient api, String g, String p) {
        var r = api.get("/api/v1/graphs/" + g + "/runs/" + p);
        return r.status() == 200 ? api.run(g, p).get("state").asString() : "absent (" + r.status() + ")";
    }

    private void send(String topic, String key, String json) throws Exception {
        kafka.send(new ProducerRecord<>(topic, key, json.getBytes(StandardCharsets.UTF_8))).get();
    }

    /** Turns on the AOF with an fsync per write, so a kill -9 loses nothing, and waits for its first rewrite. */
    private static void persistEveryWrite(int port, Path dir) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            jedis.configSet("dir", dir.toString());
            jedis.configSet("appendfsync", "always");
            jedis.configSet("appendonly", "yes");
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                String info = jedis.info("persistence");
                return info.contains("aof_enabled:1") && info.contains("aof_rewrite_in_progress:0")
                        && info.contains("aof_rewrite_scheduled:0");
            });
        }
    }

    private static void kill(int port) {
        long pid;
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            pid = jedis.info("server").lines().filter(l -> l.startsWith("process_id:"))
                    .map(l -> Long.parseLong(l.substring("process_id:".length()).trim())).findFirst().orElseThrow();
        }
        ProcessHandle redis = ProcessHandle.of(pid).orElseThrow();
        redis.destroyForcibly();
        await().atMost(Duration.ofSeconds(10)).until(() -> !redis.isAlive());
    }

    /** A redis-server on the same port from the same AOF; the context stops it when it closes. */
    private void restart(int port, Path dir) throws IOException {
        assertThat(Files.exists(dir.resolve("appendonly.aof"))).as("the AOF of the killed server").isTrue();
        RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                .setting("dir " + dir).setting("appendonly yes").setting("appendfsync always").setting("save \"\"")
                .onShutdownForceStop(true).build();
        server.start();
        ((org.springframework.beans.factory.support.DefaultSingletonBeanRegistry) context.getBeanFactory())
                .registerDisposableBean("restartedRedis", server::stop);
        await().atMost(Duration.ofSeconds(20)).until(() -> answers(port));
    }

    private static boolean answers(int port) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The records of each dead-letter topic: the end offsets of its partitions added up. */
    private Map<String, Long> deadLetters() throws Exception {
        List<String> dlts = List.of(SwaleTopics.deadLetter(topics.pool("default")),
                SwaleTopics.deadLetter(topics.events()), SwaleTopics.deadLetter(topics.triggers()));
        Map<String, Long> out = new LinkedHashMap<>();
        try (AdminClient admin = AdminClient.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                env.getRequiredProperty("spring.kafka.bootstrap-servers")))) {
            var existing = admin.listTopics().names().get();
            for (String dlt : dlts) {
                if (!existing.contains(dlt)) {
                    out.put(dlt, 0L);
                    continue;
                }
                TopicDescription d = admin.describeTopics(List.of(dlt)).allTopicNames().get().get(dlt);
                Map<TopicPartition, OffsetSpec> ends = d.partitions().stream().collect(Collectors.toMap(
                        p -> new TopicPartition(dlt, p.partition()), p -> OffsetSpec.latest()));
                out.put(dlt, admin.listOffsets(ends).all().get().values().stream().mapToLong(o -> o.offset()).sum());
            }
        }
        return out;
    }
}
