package io.swale.bench;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the design's own messages cost with no Swale code between them. Per task instance the scheduler reads the
 * run, runs its submit script and produces the dispatch; the worker runs its claim script and its finish script
 * and produces the event. Here bare clients with the application's client settings send exactly those, against
 * the same broker and redis-server, one consumer per side. One instance at a time this is the floor of an edge
 * (event produced → consumed → read → submit → dispatch produced → consumed → claimed); many at once it is the
 * floor of CPU per instance, every process included.
 *
 * <p>It is a floor, not a model: each script writes or reads one hash field where Swale's check and write the run's
 * records, and each side sends everything of one poll that can share a round trip in one pipeline (the reads, the
 * submits, the claims, the finishes), which Swale does for some of them only.
 */
final class DesignFloor {
    /** About the size of an event's and a dispatch's JSON. */
    static final int PAYLOAD_BYTES = 128;

    private static final String READ = "return redis.call('HGETALL', KEYS[1])";
    private static final String SUBMIT = "return redis.call('HSET', KEYS[1], 'state', 'submitted')";
    private static final String CLAIM = "return redis.call('HSET', KEYS[1], 'state', 'running')";
    private static final String FINISH = "return redis.call('HSET', KEYS[1], 'state', 'succeeded')";

    private final Map<String, Object> producerConfig;
    private final Map<String, Object> consumerConfig;
    private final Map<String, Object> adminConfig;
    private final UnifiedJedis redis;
    private final String id;
    private final int partitions;
    private final String events;
    private final String dispatches;
    // one hash slot for every key, so that a Cluster holds the scripts and the keys on one node
    private final String keyPrefix;
    private String readSha;
    private String submitSha;
    private String claimSha;
    private String finishSha;

    /** Edge: the event's produce → the claim script's answer, one instance at a time. */
    final Dist edge = new Dist();
    int inFlight;
    long instances;
    double seconds;
    /** This process's CPU (the broker when it runs here, the clients, the idle service) and redis-server's. */
    double processCpuMs;
    double redisCpuMs;
    /** Kafka requests while many went round (whose: as the bench's {@link KafkaRequests} counts them). */
    KafkaRequests.Counts kafka = new KafkaRequests.Counts(0, 0, 0, 0, 0);
    /** Context switches by thread group while many went round (empty where not counted). */
    Map<String, Long> contextSwitches = Map.of();

    DesignFloor(Map<String, Object> producerConfig, Map<String, Object> consumerConfig, Map<String, Object> adminConfig,
            UnifiedJedis redis, String id, int partitions) {
        this.producerConfig = producerConfig;
        this.consumerConfig = consumerConfig;
        this.adminConfig = adminConfig;
        this.redis = redis;
        this.id = id;
        this.partitions = partitions;
        this.events = "bench.floor.events." + id;
        this.dispatches = "bench.floor.dispatch." + id;
        this.keyPrefix = "bench:{floor-" + id + "}:";
    }

    /**
     * {@code samples} edges one at a time, then {@code total} instances with {@code inFlight} going round at once
     * (none when {@code total} is 0), timing CPU with {@code cpu} and redis-server's with {@code redisCpuMs}, and
     * counting Kafka requests with {@code requests} and context switches of this process and of the redis-servers
     * {@code redisPids}.
     */
    void run(int samples, long total, int inFlight, CpuMeter cpu, DoubleSupplier redisCpuMs, KafkaRequests requests,
            List<Long> redisPids) throws Exception {
        try (AdminClient admin = AdminClient.create(adminConfig)) {
            admin.createTopics(List.of(new NewTopic(events, partitions, (short) 1),
                    new NewTopic(dispatches, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        String anyKey = key(0);
        readSha = redis.scriptLoad(READ, anyKey);
        submitSha = redis.scriptLoad(SUBMIT, anyKey);
        claimSha = redis.scriptLoad(CLAIM, anyKey);
        finishSha = redis.scriptLoad(FINISH, anyKey);
        try {
            oneAtATime(samples);
            if (total > 0) {
                manyAtOnce(total, inFlight, cpu, redisCpuMs, requests, redisPids);
            }
        } finally {
            // one hash slot: one command for every token's key, on a Cluster too
            redis.del(IntStream.range(0, Math.max(1, inFlight)).mapToObj(this::key)
                    .toArray(String[]::new));
        }
    }

    private void oneAtATime(int samples) throws Exception {
        int warmup = Math.max(20, samples / 5);
        AtomicLong claimed = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        try (Loop loop = new Loop("bench-floor-edge", nanos -> {
            if (claimed.incrementAndGet() > warmup) {
                edge.recordNanos(nanos);
            }
        }, () -> {
            if (claimed.get() < warmup + samples) {
                return true;
            }
            done.countDown();
            return false;
        })) {
            loop.inject(1);
            if (!done.await(60 + samples / 10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("design floor: " + claimed.get() + " of " + (warmup + samples)
                        + " instances in time" + loop.failure());
            }
        }
    }

    private void manyAtOnce(long total, int tokens, CpuMeter cpu, DoubleSupplier redisCpu, KafkaRequests requests,
            List<Long> redisPids) throws Exception {
        AtomicLong finished = new AtomicLong();
        AtomicLong endedAt = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        Map<Long, long[]> cpu0;
        double redis0;
        KafkaRequests.Counts kafka0;
        long t0;
        try (Loop loop = new Loop("bench-floor-tput", nanos -> { }, () -> {
            long n = finished.incrementAndGet();
            if (n == total) {
                endedAt.set(System.nanoTime());
                done.countDown();
            }
            return n < total;
        })) {
            Map<String, ContextSwitches.ThreadCount> switches0 = ContextSwitches.snapshot(redisPids);
            cpu0 = cpu.snapshot();
            redis0 = redisCpu.getAsDouble();
            kafka0 = requests.snapshot();
            t0 = System.nanoTime();
            loop.inject(tokens);
            if (!done.await(120 + total / 500, TimeUnit.SECONDS)) {
                throw new IllegalStateException("design floor: " + finished.get() + " of " + total
                        + " instances in time" + loop.failure());
            }
            processCpuMs = CpuMeter.delta(cpu0, cpu.snapshot()).values().stream().mapToDouble(Double::doubleValue).sum();
            redisCpuMs = redisCpu.getAsDouble() - redis0;
            contextSwitches = ContextSwitches.delta(switches0, ContextSwitches.snapshot(redisPids));
            // before the loop's clients close: against a broker elsewhere their own meters are the counts
            kafka = requests.snapshot().minus(kafka0);
        }
        inFlight = tokens;
        instances = total;
        seconds = (endedAt.get() - t0) / 1e9;
    }

    double instancesPerS() {
        return seconds <= 0 ? Double.NaN : instances / seconds;
    }

    /** CPU µs per instance, every process included. */
    double cpuUsPerInstance() {
        return perInstanceUs(processCpuMs + redisCpuMs);
    }

    /** CPU time over wall time while many went round, every process included. */
    private double coresBusy() {
        return seconds <= 0 ? Double.NaN : (processCpuMs + redisCpuMs) / (1000 * seconds);
    }

    private double perInstanceUs(double cpuMs) {
        return instances == 0 ? Double.NaN : 1000 * cpuMs / instances;
    }

    /** Kafka requests of one kind per instance (0 when none went round). */
    private double perInstance(long requests) {
        return requests / (double) Math.max(1, instances);
    }

    /** Its figures, under {@code design_floor} of the report's JSON (the report adds the ratios to the shapes). */
    void put(ObjectNode o) {
        ObjectNode f = o.putObject("design_floor");
        edge.put(f, "edge");
        f.put("payload_bytes", PAYLOAD_BYTES);
        f.put("in_flight", inFlight);
        f.put("instances", instances);
        f.put("seconds", Report.round(seconds));
        f.put("instances_per_s", Report.round(instancesPerS()));
        ObjectNode cpu = f.putObject("cpu_us_per_instance");
        cpu.put("process", Report.round(perInstanceUs(processCpuMs)));
        cpu.put("redis_server", Report.round(perInstanceUs(redisCpuMs)));
        cpu.put("total", Report.round(cpuUsPerInstance()));
        ObjectNode k = f.putObject("kafka_requests_per_instance");
        k.put("produce", Report.round(perInstance(kafka.produce())));
        k.put("fetch", Report.round(perInstance(kafka.fetch())));
        k.put("offset_commit", Report.round(perInstance(kafka.offsetCommit())));
        k.put("total", Report.round(perInstance(kafka.total())));
        f.put("kafka_records_per_produce_request", Report.round(kafka.recordsPerProduce()));
        f.put("cpu_cores_busy", Report.round(coresBusy()));
        ObjectNode switches = f.putObject("context_switches_per_instance");
        contextSwitches.forEach((g, n) -> switches.put(g, Report.round(perInstance(n))));
    }

    /** Its lines of the report's table. */
    String table() {
        StringBuilder t = new StringBuilder();
        t.append(String.format("%nThe design's floor: its messages per instance on bare clients, no Swale code%n"));
        t.append(String.format("  %-34s %s%n", "edge, one instance at a time", edge.line()));
        if (instances > 0) {
            t.append(String.format("  %-34s %,d instances, %d in flight: %,.0f instances/s, CPU %.0f µs/instance "
                    + "(this process %.0f + redis-server %.0f), %.2f cores busy%n", "many at once", instances, inFlight,
                    instancesPerS(), cpuUsPerInstance(), perInstanceUs(processCpuMs), perInstanceUs(redisCpuMs),
                    coresBusy()));
            t.append(String.format("  %-34s produce %.2f  fetch %.2f  commit %.2f  total %.2f  (%.1f records a produce)%n",
                    "  Kafka requests per instance", perInstance(kafka.produce()),
                    perInstance(kafka.fetch()), perInstance(kafka.offsetCommit()), perInstance(kafka.total()),
                    kafka.recordsPerProduce()));
            t.append(String.format("  %-34s %s%n", "  Context switches per instance",
                    ContextSwitches.line(contextSwitches, instances)));
        }
        t.append(String.format("  (per instance: read, submit, claim and finish scripts of one hash field each, a dispatch "
                + "and an event of %d bytes;%n   a poll's scripts of one kind share one round trip)%n", PAYLOAD_BYTES));
        return t.toString();
    }

    private String key(int token) {
        return keyPrefix + token;
    }

    private static byte[] payload(int token, long stampNanos) {
        return ByteBuffer.allocate(PAYLOAD_BYTES).putInt(token).putLong(stampNanos).array();
    }

    private static int token(byte[] payload) {
        return ByteBuffer.wrap(payload).getInt();
    }

    private static long stamp(byte[] payload) {
        return ByteBuffer.wrap(payload).getLong(Integer.BYTES);
    }

    /** The scheduler's side and the worker's side of the loop, each a consumer on a thread of its own. */
    private final class Loop implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final KafkaProducer<String, byte[]> producer = new KafkaProducer<>(producerConfig);
        private final LongConsumer claimed;
        private final BooleanSupplier goesRound;
        private final List<Thread> sides = new ArrayList<>();
        private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

        /** {@code claimed} takes each edge in ns; {@code goesRound} says, at each finish, whether the token goes on. */
        Loop(String name, LongConsumer claimed, BooleanSupplier goesRound) {
            this.claimed = claimed;
            this.goesRound = goesRound;
            sides.add(side(name + "-scheduler", events, this::schedule));
            sides.add(side(name + "-worker", dispatches, this::work));
        }

        void inject(int tokens) {
            for (int t = 0; t < tokens; t++) {
                producer.send(new ProducerRecord<>(events, Integer.toString(t), payload(t, System.nanoTime())));
            }
        }

        private void schedule(List<ConsumerRecord<String, byte[]>> polled) {
            scripts(readSha, polled);
            scripts(submitSha, polled);
            for (ConsumerRecord<String, byte[]> r : polled) {
                producer.send(new ProducerRecord<>(dispatches, r.key(), r.value()));
            }
        }

        private void work(List<ConsumerRecord<String, byte[]>> polled) {
            scripts(claimSha, polled);
            long now = System.nanoTime();
            for (ConsumerRecord<String, byte[]> r : polled) {
                claimed.accept(now - stamp(r.value()));
            }
            scripts(finishSha, polled);
            for (ConsumerRecord<String, byte[]> r : polled) {
                if (goesRound.getAsBoolean()) {
                    producer.send(new ProducerRecord<>(events, r.key(), payload(token(r.value()), System.nanoTime())));
                }
            }
        }

        /** One script per record, all of one poll in one round trip. */
        private void scripts(String sha, List<ConsumerRecord<String, byte[]>> polled) {
            try (AbstractPipeline p = redis.pipelined()) {
                for (ConsumerRecord<String, byte[]> r : polled) {
                    p.evalsha(sha, List.of(key(token(r.value()))), List.of());
                }
                p.sync();
            }
        }

        private Thread side(String name, String topic, Consumer<List<ConsumerRecord<String, byte[]>>> handler) {
            KafkaConsumer<String, byte[]> consumer = Baselines.consumerAtEnd(consumerConfig, name + "-" + id, topic,
                    partitions);
            Thread t = new Thread(() -> {
                try (consumer) {
                    while (!stop.get()) {
                        List<ConsumerRecord<String, byte[]>> polled = new ArrayList<>();
                        consumer.poll(Duration.ofMillis(100)).forEach(polled::add);
                        if (!polled.isEmpty()) {
                            handler.accept(polled);
                            // offsets per poll, as the application's listeners commit them
                            consumer.commitAsync();
                        }
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e);
                }
            }, name);
            t.setDaemon(true);
            t.start();
            return t;
        }

        /** Why the loop stalled, when one of its sides died. */
        String failure() {
            RuntimeException e = failure.get();
            return e == null ? "" : " (" + e + ")";
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread t : sides) {
                t.join(5_000);
            }
            producer.close(Duration.ofSeconds(5));
        }
    }
}
