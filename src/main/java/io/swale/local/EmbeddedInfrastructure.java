package io.swale.local;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** An in-process KRaft broker and a real redis-server, every listener on a free port of 127.0.0.1. */
public final class EmbeddedInfrastructure implements EmbeddedServers {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedInfrastructure.class);

    private final LoopbackKraftBroker kafka;
    private final EmbeddedRedis redis;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EmbeddedInfrastructure(LoopbackKraftBroker kafka, EmbeddedRedis redis) {
        this.kafka = kafka;
        this.redis = redis;
    }

    /** Starts both and waits until both serve. */
    public static EmbeddedInfrastructure start(int partitions) {
        EmbeddedInfrastructure infra = starting(partitions);
        try {
            infra.awaitRedis();
            infra.awaitKafka();
        } catch (RuntimeException e) {
            infra.close();
            throw e;
        }
        return infra;
    }

    /**
     * Starts redis-server (a fraction of a second, see {@link EmbeddedRedis}) and the broker (seconds), each on a
     * thread of its own, so that the caller can go on while they start: their addresses are known already. The
     * broker's preparation (its test kit, built before its thread starts) still runs on the caller's thread.
     */
    public static EmbeddedInfrastructure starting(int partitions) {
        long t0 = System.nanoTime();
        EmbeddedRedis redis = EmbeddedRedis.starting();
        Map<String, String> broker = new LinkedHashMap<>();
        broker.put("group.initial.rebalance.delay.ms", "0");
        broker.put("offsets.topic.num.partitions", "4");
        broker.put("auto.create.topics.enable", "true");
        LoopbackKraftBroker kafka;
        try {
            kafka = LoopbackKraftBroker.starting(partitions, broker);
        } catch (RuntimeException | Error e) {
            // an Error too: the broker's metrics fail their class initialisation when the JVM exits meanwhile
            try {
                redis.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        log.info("embedded Redis at {} and embedded Kafka at {} starting ({} ms on this thread)", redis.address(),
                kafka.bootstrapServers(), (System.nanoTime() - t0) / 1_000_000);
        LoopbackKraftBroker started = kafka;
        kafka.whenStarted(() -> log.info("embedded Kafka at {} started in {} ms", started.bootstrapServers(),
                (System.nanoTime() - t0) / 1_000_000));
        return new EmbeddedInfrastructure(kafka, redis);
    }

    @Override
    public void awaitKafka() {
        kafka.awaitStarted();
    }

    @Override
    public String kafkaBootstrap() {
        return kafka.bootstrapServers();
    }

    @Override
    public void awaitRedis() {
        redis.awaitStarted();
    }

    @Override
    public int redisPort() {
        return redis.port();
    }

    /** Stops both; closing again does nothing (the context and an early exit may both close). */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            kafka.close();
        } finally {
            redis.close();
        }
    }
}
