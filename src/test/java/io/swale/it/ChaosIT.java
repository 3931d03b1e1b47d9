package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Swale under faults, every piece its own process (see {@link ChaosCluster}): a stream of graph runs while, one
 * after another with recovery in between, a worker is kill -9'd, then a scheduler, redis-server, the Kafka broker,
 * and a worker gets SIGTERM; each comes back. Every task's shell command writes the start and end of its attempt
 * ({@link AttemptLog}). Fails on a run lost or stuck, two attempts of one task instance at once, a finished attempt
 * run again, a dead letter of a run that completed, and a pause after a fault longer than {@link #PAUSE_LIMIT}.
 * Prints the figures and writes them to target/chaos-report.txt. Runs in the `chaos` profile.
 */
class ChaosIT {
    /** The bound on the time without any termination after a fault. */
    static final Duration PAUSE_LIMIT = Duration.ofSeconds(15);
    /** Members run on the jar's defaults (lease 60 s, reaper 5 s, consumer settings): what an operator gets. */
    static final List<String> MEMBER_SETTINGS = List.of();
    /** Runs kept active while faults are injected, so that work is pending at every fault, and a cap in all. */
    static final int ACTIVE_RUNS = 24;
    static final int MAX_RUNS = 1000;
    /** How long Redis stays down: longer than the few seconds after which today's error handler gives up. */
    static final Duration REDIS_OUTAGE = Duration.ofSeconds(5);
    /** Progress after a fault: this many attempts ended since the killed process came back. */
    static final int RECOVERED_AFTER_ENDS = 10;
    static final Duration RECOVERY_WAIT = Duration.ofSeconds(120);
    static final Duration SETTLE_WAIT = Duration.ofSeconds(240);
    /** Each node's sleep between its start and end lines; the longest bounds an attempt killed without an end. */
    static final Map<String, String> SLEEPS = Map.of("a", "0.5", "b", "1", "c", "0.3", "d", "0.2");
    static final long LONGEST_SLEEP_MS = 1000 + 2000;
    /** The jar's default lease: a kill -9 within it of a worker that ended an attempt may lose the result. */
    static final long LEASE_MS = 60_000;

    final Path dir = Path.of("target", "chaos").toAbsolutePath();
    final Path attemptsFile = dir.resolve("attempts.log");
    ChaosCluster cluster;
    ScheduledExecutorService feeder;

    @BeforeAll
    static void quietClients() {
        ChaosCluster.quietTestLogs();
    }

    @AfterEach
    void stopEverything() {
        if (feeder != null) {
            feeder.shutdownNow();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void runsSurviveKilledWorkersSchedulersRedisAndKafka() throws Exception {
        String jar = ChaosCluster.builtJar();
        cluster = new ChaosCluster(dir, jar, MEMBER_SETTINGS);
        cluster.startAll();
        ChaosApi api = new ChaosApi(List.copyOf(cluster.apiPorts.values()));
        String g = IntegrationTest.unique("chaos");
        SwaleClient.Response published = api.call(c -> c.publish(definition(g))).orElseThrow();
        assertThat(published.status()).as("publish: %s", published.body()).isEqualTo(201);
        for (int port : cluster.apiPorts.values()) {
            SwaleClient s = new SwaleClient(port);
            await("both schedulers know " + g).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> s.get("/api/v1/graphs/" + g).status() == 200);
        }

        ChaosReport report = new ChaosReport();
        report.pauseLimitMs = PAUSE_LIMIT.toMillis();
        report.startedMs = System.currentTimeMillis();
        List<String> started = Collections.synchronizedList(new ArrayList<>());
        AtomicLong active = new AtomicLong();
        feeder = Executors.newSingleThreadScheduledExecutor();
        feeder.scheduleWithFixedDelay(() -> feed(api, g, started, active), 0, 1, TimeUnit.SECONDS);
        awaitEnds(report.startedMs, 20, Duration.ofSeconds(120), "the first runs");

        List<ChaosProcess.Killed> kills = new ArrayList<>();
        Map<String, Long> terminated = new HashMap<>();
        // a worker dies: the others carry on while its partitions and leases move
        ChaosProcess w1 = cluster.workers.get("w1");
        ChaosProcess.Killed k = w1.kill9();
        kills.add(k);
        w1.start();
        recover(report, "kill -9 worker " + k.member(), k.atMs(), w1, false, active);
        // a scheduler dies: the other one serves the API and the events
        ChaosProcess s1 = cluster.schedulers.get("s1");
        k = s1.kill9();
        kills.add(k);
        s1.start();
        recover(report, "kill -9 scheduler " + k.member(), k.atMs(), s1, false, active);
        // Redis dies and comes back from its append-only file
        k = cluster.redis.kill9();
        // the outage lasts REDIS_OUTAGE, and Redis must not answer during any of it
        await("redis-server stays down").during(REDIS_OUTAGE).atMost(REDIS_OUTAGE.plusSeconds(5))
                .until(() -> !cluster.redisAnswers());
        cluster.redis.start();
        recover(report, "kill -9 redis-server", k.atMs(), cluster.redis, true, active);
        // the broker dies and comes back on its ports and log directory
        k = cluster.kafka.kill9();
        cluster.kafka.start();
        recover(report, "kill -9 Kafka broker", k.atMs(), cluster.kafka, true, active);
        // a worker is stopped as Kubernetes stops a pod: it hands over and exits
        ChaosProcess w2 = cluster.workers.get("w2");
        String member = w2.member();
        long at = w2.terminate(90);
        terminated.put(member, at);
        w2.start();
        recover(report, "SIGTERM worker " + member, at, w2, false, active);
        feeder.shutdownNow();
        assertThat(feeder.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

        List<String> runs = List.copyOf(started);
        report.runs = runs.size();
        try {
            await("every run settled").atMost(SETTLE_WAIT).pollInterval(Duration.ofSeconds(1)).until(() ->
                    api.runCounts(g).map(c -> c.get("active").asInt() == 0).orElse(false));
        } catch (ConditionTimeoutException e) {
            report.violations.add("runs still active " + SETTLE_WAIT.toSeconds() + " s after the last fault: "
                    + api.runCounts(g).map(JsonNode::toString).orElse("(no scheduler answers)"));
        }
        report.scenarioMs = System.currentTimeMillis() - report.startedMs;
        Map<String, String> states = inspectRuns(api, g, runs, report);
        readDeadLetters(g, runs, states, report);
        AttemptLog log = AttemptLog.read(attemptsFile);
        report.attempts = log.attempts();
        for (AttemptLog.Overlap o : log.overlaps(kills, LONGEST_SLEEP_MS)) {
            report.violations.add("two attempts at once: " + o.first().describe(report.startedMs) + " (until "
                    + ChaosReport.seconds(o.latestEndMs() - report.startedMs) + " s) and "
                    + o.second().describe(report.startedMs));
        }
        report.reExecutions = log.causes(kills, terminated, LEASE_MS);
        report.reExecutions.stream().filter(r -> r.cause().equals(AttemptLog.FINISHED_RERUN))
                .forEach(r -> report.violations.add("finished attempt run again: " + r.before().describe(report.startedMs)
                        + ", then " + r.after().describe(report.startedMs)));
        report.deadLetters.stream().filter(ChaosReport.DeadLetter::ofCompletedRun)
                .forEach(d -> report.violations.add("dead letter of a run that completed: " + d));
        for (ChaosReport.Pause p : report.pauses()) {
            if (p.longestMs() > PAUSE_LIMIT.toMillis()) {
                report.violations.add("pause of " + ChaosReport.seconds(p.longestMs()) + " s after "
                        + p.fault().what() + ", from " + ChaosReport.seconds(p.gapFromMs() - report.startedMs)
                        + " s to " + ChaosReport.seconds(p.gapToMs() - report.startedMs) + " s");
                report.pauseLogs.addAll(ChaosLogs.around(dir, p.gapFromMs(), p.gapToMs()));
            }
        }
        report.write(Path.of("target", "chaos-report.txt"));
        System.out.println(report.text());
        assertThat(runs.size()).as("runs started during the faults").isGreaterThanOrEqualTo(ACTIVE_RUNS);
        assertThat(report.faults).allSatisfy(f -> assertThat(f.activeRuns()).as("work pending at %s", f.what())
                .isPositive());
        assertThat(report.violations).as(report.text()).isEmpty();
    }

    /** Keeps {@link #ACTIVE_RUNS} runs active; a start a scheduler does not take is tried again on the next tick. */
    private static void feed(ChaosApi api, String g, List<String> started, AtomicLong active) {
        try {
            Optional<JsonNode> counts = api.runCounts(g);
            if (counts.isEmpty()) {
                return;
            }
            long now = counts.get().get("active").asLong();
            active.set(now);
            int more = (int) Math.min(ACTIVE_RUNS - now, MAX_RUNS - started.size());
            if (more <= 0) {
                return;
            }
            List<String> next = new ArrayList<>();
            for (int i = 0; i < more; i++) {
                next.add(String.format("c%04d", started.size() + i));
            }
            if (api.start(g, next)) {
                started.addAll(next);
            }
        } catch (RuntimeException e) {
            // a fault in the middle of a call: the next tick asks again
        }
    }

    /** Waits for the killed process and then for progress, and records the fault. */
    private void recover(ChaosReport report, String what, long atMs, ChaosProcess back, boolean measureFromBack,
            AtomicLong active) {
        long activeAtFault = active.get();
        cluster.awaitReady(back);
        long backMs = System.currentTimeMillis();
        boolean recovered = true;
        try {
            awaitEnds(backMs, RECOVERED_AFTER_ENDS, RECOVERY_WAIT, what);
        } catch (ConditionTimeoutException e) {
            recovered = false;
        }
        report.faults.add(new ChaosReport.Fault(what, atMs, backMs, measureFromBack ? backMs : atMs, activeAtFault,
                recovered));
    }

    private void awaitEnds(long sinceMs, int count, Duration atMost, String what) {
        await("progress after " + what).atMost(atMost).pollInterval(Duration.ofMillis(500)).until(() ->
                AttemptLog.read(attemptsFile).ends().stream().filter(t -> t > sinceMs).count() >= count);
    }

    /** Each run's final state and attempt history: lost, stuck or failed runs, and Swale's terminations. */
    private static Map<String, String> inspectRuns(ChaosApi api, String g, List<String> runs, ChaosReport report) {
        Map<String, String> states = new HashMap<>();
        List<Long> terminations = new ArrayList<>();
        for (String p : runs) {
            Optional<SwaleClient.Response> r = Optional.empty();
            for (int i = 0; i < 5 && r.isEmpty(); i++) {
                r = api.run(g, p);
            }
            String state = r.map(x -> x.status() == 200 ? x.body().get("state").asString() : "lost (" + x.status() + ")")
                    .orElse("unknown (no scheduler answers)");
            states.put(p, state);
            report.runStates.merge(state, 1, Integer::sum);
            if (!state.equals("complete")) {
                report.violations.add("run " + p + " ended " + state);
            }
            if (r.isEmpty() || r.get().status() != 200) {
                continue;
            }
            for (JsonNode node : r.get().body().get("nodes")) {
                boolean succeeded = false;
                for (JsonNode a : node.get("attempts")) {
                    String outcome = a.get("outcome").asString();
                    report.outcomes.merge(outcome, 1, Integer::sum);
                    if (succeeded) {
                        report.violations.add("Swale ran an attempt after a succeeded one: " + g + "/" + p + " "
                                + node.get("name").asString() + " " + node.get("attempts"));
                    }
                    succeeded |= outcome.equals("succeeded");
                    if (!outcome.equals("lease_expired") && !outcome.equals("released") && a.get("endedMs").isNumber()) {
                        terminations.add(a.get("endedMs").asLong());
                    }
                }
            }
        }
        Collections.sort(terminations);
        report.terminations = terminations;
        return states;
    }

    /** Every letter on the pool, events and triggers dead-letter topics that names one of the test's runs. */
    private void readDeadLetters(String g, List<String> runs, Map<String, String> states, ChaosReport report) {
        Properties p = new Properties();
        p.putAll(cluster.kafkaClientConfig());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "chaos-dlt-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            for (String topic : List.of("swale.pool.default.DLT", "swale.events.DLT", "swale.triggers.DLT")) {
                List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                        .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
                if (parts.isEmpty()) {
                    continue;
                }
                c.assign(parts);
                c.seekToBeginning(parts);
                Map<TopicPartition, Long> end = c.endOffsets(parts, Duration.ofSeconds(10));
                Deque<TopicPartition> pending = new ArrayDeque<>(parts);
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (pending.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(500))) {
                        String key = r.key() == null ? "" : r.key();
                        if (!key.startsWith(g)) {
                            continue;
                        }
                        String partition = ChaosReport.partitionOf(key, g, runs).orElse("?");
                        report.deadLetters.add(new ChaosReport.DeadLetter(topic, key, partition,
                                states.getOrDefault(partition, "unknown")));
                    }
                }
            }
        }
    }

    /** a → (b, c) → d, shell tasks of 0.2–1 s that write their attempts' start and end. */
    private String definition(String g) {
        StringBuilder s = new StringBuilder("[graph]\nname = \"" + g + "\"\n");
        Map<String, List<String>> consumes = Map.of("a", List.of(), "b", List.of("a"), "c", List.of("a"),
                "d", List.of("b", "c"));
        for (String n : List.of("a", "b", "c", "d")) {
            s.append("[[node]]\nname = \"").append(n).append("\"\nproduces = \"").append(g).append('_').append(n)
                    .append("\"\n");
            if (!consumes.get(n).isEmpty()) {
                s.append("consumes = [").append(String.join(", ", consumes.get(n).stream()
                        .map(u -> "\"" + g + "_" + u + "\"").toList())).append("]\n");
            }
            s.append("operator = \"shell\"\nretries = 5\n[node.params]\ncommand = \"")
                    .append(AttemptLog.command(attemptsFile, SLEEPS.get(n)).replace("\\", "\\\\").replace("\"", "\\\""))
                    .append("\"\n");
        }
        return s.toString();
    }
}
