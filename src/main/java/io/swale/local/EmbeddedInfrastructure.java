package io.swale.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/** An in-process KRaft broker and a real redis-server, every listener on a free port of 127.0.0.1. */
public final class EmbeddedInfrastructure implements EmbeddedServers {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedInfrastructure.class);

    private final LoopbackKraftBroker kafka;
    private final RedisServer redis;
    private final int redisPort;

    private EmbeddedInfrastructure(LoopbackKraftBroker kafka, RedisServer redis, int redisPort) {
        this.kafka = kafka;
        this.redis = redis;
        this.redisPort = redisPort;
    }

    /** Starts both and waits until the broker serves. */
    public static EmbeddedInfrastructure start(int partitions) {
        EmbeddedInfrastructure infra = starting(partitions);
        try {
            infra.awaitKafka();
        } catch (RuntimeException e) {
            infra.close();
            throw e;
        }
        return infra;
    }

    /**
     * Starts redis-server (half a second) and waits for it; starts the broker (seconds) on a thread of its
     * own, so that the caller can go on while it starts: its address is known already.
     */
    public static EmbeddedInfrastructure starting(int partitions) {
        long t0 = System.nanoTime();
        int redisPort = freePort();
        RedisServer redis;
        try {
            redis = RedisServer.newRedisServer()
                    .port(redisPort)
                    .bind("127.0.0.1")
                    .setting("appendonly no")
                    .setting("save \"\"")
                    .onShutdownForceStop(true)
                    .build();
            redis.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded redis-server", e);
        }
        Map<String, String> broker = new LinkedHashMap<>();
        broker.put("group.initial.rebalance.delay.ms", "0");
        broker.put("offsets.topic.num.partitions", "4");
        broker.put("auto.create.topics.enable", "true");
        LoopbackKraftBroker kafka;
        try {
            kafka = LoopbackKraftBroker.starting(partitions, broker);
        } catch (RuntimeException e) {
            stopQuietly(redis);
            throw e;
        }
        log.info("embedded Redis at 127.0.0.1:{} started in {} ms; embedded Kafka at {} starting", redisPort,
                (System.nanoTime() - t0) / 1_000_000, kafka.bootstrapServers());
        LoopbackKraftBroker started = kafka;
        kafka.whenStarted(() -> log.info("embedded Kafka at {} started in {} ms", started.bootstrapServers(),
                (System.nanoTime() - t0) / 1_000_000));
        return new EmbeddedInfrastructure(kafka, redis, redisPort);
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
    public int redisPort() {
        return redisPort;
    }

    @Override
    public void close() {
        try {
            kafka.close();
        } finally {
            stopQuietly(redis);
        }
    }

    private static void stopQuietly(RedisServer redis) {
        try {
            redis.stop();
        } catch (IOException | RuntimeException e) {
            log.warn("embedded redis-server did not stop cleanly: {}", e.toString());
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
