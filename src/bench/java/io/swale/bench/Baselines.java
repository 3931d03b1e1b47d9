package io.swale.bench;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import redis.clients.jedis.UnifiedJedis;

/**
 * The physical floor, measured in the same process with the application's own client configuration: a
 * Kafka produce → consume hop, a two-hop ping-pong (the two hops of a scheduling edge), Kafka records/s,
 * and Redis round trips. The two-hop and the script round trip are measured twice: back to back, and each after
 * a pause of {@link #IDLE_PAUSE}, as an edge meets them (its steps come a Kafka hop apart, long enough for the
 * threads and the server on the other side to have gone idle).
 */
final class Baselines {
    private final Map<String, Object> producerConfig;
    private final Map<String, Object> consumerConfig;
    private final Map<String, Object> adminConfig;
    private final UnifiedJedis redis;
    private final String id;

    final Dist kafkaHop = new Dist();
    final Dist kafkaTwoHop = new Dist();
    final Dist kafkaTwoHopIdle = new Dist();
    double kafkaRecordsPerS;
    final Dist redisRtt = new Dist();
    final Dist redisScriptRtt = new Dist();
    final Dist redisScriptRttIdle = new Dist();
    double redisOpsPerS;
    /** The pause before each sample of the idle variants. */
    static final Duration IDLE_PAUSE = Duration.ofMillis(2);

    Baselines(Map<String, Object> producerConfig, Map<String, Object> consumerConfig, Map<String, Object> adminConfig,
            UnifiedJedis redis, String id) {
        this.producerConfig = producerConfig;
        this.consumerConfig = consumerConfig;
        this.adminConfig = adminConfig;
        this.redis = redis;
        this.id = id;
    }

    void run(int samples, int records) throws Exception {
        String hop = "bench.hop." + id;
        String ping = "bench.ping." + id;
        String pong = "bench.pong." + id;
        String tput = "bench.tput." + id;
        try (AdminClient admin = AdminClient.create(adminConfig)) {
            admin.createTopics(List.of(new NewTopic(hop, 1, (short) 1), new NewTopic(ping, 1, (short) 1),
                    new NewTopic(pong, 1, (short) 1), new NewTopic(tput, 4, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        oneHop(hop, samples);
        twoHop(ping, pong, samples, Duration.ZERO, kafkaTwoHop);
        twoHop(ping, pong, samples, IDLE_PAUSE, kafkaTwoHopIdle);
        throughput(tput, records);
        redis(samples);
    }

    private KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(producerConfig);
    }

    private KafkaConsumer<String, byte[]> consumer(String topic, int partitions) {
        return consumerAtEnd(consumerConfig, "bench-" + topic, topic, partitions);
    }

    /** A consumer of {@code group} assigned every partition of {@code topic}, positioned at its end already. */
    static KafkaConsumer<String, byte[]> consumerAtEnd(Map<String, Object> consumerConfig, String group, String topic,
            int partitions) {
        Map<String, Object> c = new HashMap<>(consumerConfig);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c);
        List<TopicPartition> tps = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            tps.add(new TopicPartition(topic, p));
        }
        consumer.assign(tps);
        consumer.seekToEnd(tps);
        tps.forEach(consumer::position);
        return consumer;
    }

    /** A consumer thread that polls like a listener container and hands each record's value on. */
    private static Thread poller(String name, KafkaConsumer<String, byte[]> consumer, AtomicBoolean stop,
            java.util.function.Consumer<ConsumerRecord<String, byte[]>> handler) {
        Thread t = new Thread(() -> {
            try (consumer) {
                while (!stop.get()) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                        handler.accept(r);
                    }
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void oneHop(String topic, int samples) throws Exception {
        BlockingQueue<Long> arrived = new ArrayBlockingQueue<>(16);
        AtomicBoolean stop = new AtomicBoolean();
        Thread t = poller("bench-hop", consumer(topic, 1), stop,
                r -> arrived.add(System.nanoTime() - ByteBuffer.wrap(r.value()).getLong()));
        try (KafkaProducer<String, byte[]> producer = producer()) {
            int warmup = Math.max(20, samples / 5);
            for (int i = 0; i < warmup + samples; i++) {
                producer.send(new ProducerRecord<>(topic, "k", nanos()));
                Long nanos = arrived.poll(10, TimeUnit.SECONDS);
                if (nanos == null) {
                    throw new IllegalStateException("kafka hop: no record in 10 s");
                }
                if (i >= warmup) {
                    kafkaHop.recordNanos(nanos);
                }
            }
        } finally {
            stop.set(true);
            t.join(5_000);
        }
    }

    private void twoHop(String ping, String pong, int samples, Duration pause, Dist into) throws Exception {
        BlockingQueue<Long> back = new ArrayBlockingQueue<>(16);
        AtomicBoolean stop = new AtomicBoolean();
        KafkaProducer<String, byte[]> echo = producer();
        Thread responder = poller("bench-ping", consumer(ping, 1), stop,
                r -> echo.send(new ProducerRecord<>(pong, r.key(), r.value())));
        Thread initiator = poller("bench-pong", consumer(pong, 1), stop,
                r -> back.add(System.nanoTime() - ByteBuffer.wrap(r.value()).getLong()));
        try (KafkaProducer<String, byte[]> producer = producer()) {
            int warmup = Math.max(20, samples / 5);
            for (int i = 0; i < warmup + samples; i++) {
                pause(pause);
                producer.send(new ProducerRecord<>(ping, "k", nanos()));
                Long nanos = back.poll(10, TimeUnit.SECONDS);
                if (nanos == null) {
                    throw new IllegalStateException("kafka ping-pong: no answer in 10 s");
                }
                if (i >= warmup) {
                    into.recordNanos(nanos);
                }
            }
        } finally {
            stop.set(true);
            responder.join(5_000);
            initiator.join(5_000);
            echo.close();
        }
    }

    private void throughput(String topic, int records) throws Exception {
        AtomicLong received = new AtomicLong();
        AtomicLong lastAt = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Thread t = poller("bench-tput", consumer(topic, 4), stop, r -> {
            received.incrementAndGet();
            lastAt.set(System.nanoTime());
        });
        byte[] value = new byte[64];
        long t0;
        try (KafkaProducer<String, byte[]> producer = producer()) {
            t0 = System.nanoTime();
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, Integer.toString(i % 64), value));
            }
            producer.flush();
        }
        long deadline = System.currentTimeMillis() + 60_000;
        while (received.get() < records && System.currentTimeMillis() < deadline) {
            ShapeRunner.sleep(5);
        }
        stop.set(true);
        t.join(5_000);
        kafkaRecordsPerS = received.get() / ((lastAt.get() - t0) / 1e9);
    }

    private void redis(int samples) throws Exception {
        String key = "bench:" + id + ":k";
        {
            var j = redis;
            j.set(key, "v");
            // loaded on the key's node: a Cluster client routes by it
            String sha = j.scriptLoad("return redis.call('GET', KEYS[1])", key);
            int warmup = Math.max(100, samples / 5);
            for (int i = 0; i < warmup + samples; i++) {
                long t = System.nanoTime();
                j.get(key);
                if (i >= warmup) {
                    redisRtt.recordNanos(System.nanoTime() - t);
                }
            }
            scriptRoundTrips(sha, key, warmup + samples, warmup, Duration.ZERO, redisScriptRtt);
            scriptRoundTrips(sha, key, warmup + samples, warmup, IDLE_PAUSE, redisScriptRttIdle);
        }
        // simple operations/s over 8 connections for one second
        AtomicLong ops = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Thread t = new Thread(() -> {
                {
            var j = redis;
                    long n = 0;
                    while (!stop.get()) {
                        j.get(key);
                        n++;
                    }
                    ops.addAndGet(n);
                }
            }, "bench-redis-" + i);
            threads.add(t);
        }
        long t0 = System.nanoTime();
        threads.forEach(Thread::start);
        Thread.sleep(1_000);
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        redisOpsPerS = ops.get() / ((System.nanoTime() - t0) / 1e9);
        {
            var j = redis;
            j.del(key);
        }
    }

    /** {@code tries} EVALSHA round trips, each after {@code pause}; those after the first {@code warmup} count. */
    private void scriptRoundTrips(String sha, String key, int tries, int warmup, Duration pause, Dist into) {
        for (int i = 0; i < tries; i++) {
            pause(pause);
            long t = System.nanoTime();
            redis.evalsha(sha, List.of(key), List.of());
            if (i >= warmup) {
                into.recordNanos(System.nanoTime() - t);
            }
        }
    }

    private static void pause(Duration pause) {
        if (!pause.isZero()) {
            java.util.concurrent.locks.LockSupport.parkNanos(pause.toNanos());
        }
    }

    private static byte[] nanos() {
        return ByteBuffer.allocate(8).putLong(System.nanoTime()).array();
    }
}
