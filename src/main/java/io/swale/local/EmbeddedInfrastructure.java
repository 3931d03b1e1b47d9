package io.swale.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/** An in-process KRaft broker and a real redis-server, every listener on a free port of 127.0.0.1. */
public final class EmbeddedInfrastructure implements EmbeddedServers {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedInfrastructure.class);

    /** How long close waits for a redis-server still starting. */
    private static final long CLOSE_AWAITS_REDIS_SECONDS = 30;

    private final LoopbackKraftBroker kafka;
    private final CompletableFuture<RedisServer> redis;
    private final int redisPort;

    private EmbeddedInfrastructure(LoopbackKraftBroker kafka, CompletableFuture<RedisServer> redis, int redisPort) {
        this.kafka = kafka;
        this.redis = redis;
        this.redisPort = redisPort;
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
     * Starts redis-server (half a second) and the broker (seconds), each on a thread of its own, so that the
     * caller can go on while they start: their addresses are known already.
     */
    public static EmbeddedInfrastructure starting(int partitions) {
        long t0 = System.nanoTime();
        int redisPort = freePort();
        CompletableFuture<RedisServer> redis = new CompletableFuture<>();
        Thread redisStarter = new Thread(() -> {
            try {
                redis.complete(startRedis(redisPort));
                log.info("embedded Redis at 127.0.0.1:{} started in {} ms", redisPort, (System.nanoTime() - t0) / 1_000_000);
            } catch (Throwable e) {
                redis.completeExceptionally(e);
            }
        }, "swale-embedded-redis-start");
        redisStarter.setDaemon(true);
        redisStarter.start();
        Map<String, String> broker = new LinkedHashMap<>();
        broker.put("group.initial.rebalance.delay.ms", "0");
        broker.put("offsets.topic.num.partitions", "4");
        broker.put("auto.create.topics.enable", "true");
        LoopbackKraftBroker kafka;
        try {
            kafka = LoopbackKraftBroker.starting(partitions, broker);
        } catch (RuntimeException e) {
            stopWhenStarted(redis);
            throw e;
        }
        log.info("embedded Redis at 127.0.0.1:{} and Kafka at {} starting", redisPort, kafka.bootstrapServers());
        LoopbackKraftBroker started = kafka;
        kafka.whenStarted(() -> log.info("embedded Kafka at {} started in {} ms", started.bootstrapServers(),
                (System.nanoTime() - t0) / 1_000_000));
        return new EmbeddedInfrastructure(kafka, redis, redisPort);
    }

    private static RedisServer startRedis(int port) throws IOException {
        RedisServer server = RedisServer.newRedisServer()
                .port(port)
                .bind("127.0.0.1")
                .setting("appendonly no")
                .setting("save \"\"")
                .onShutdownForceStop(true)
                .build();
        server.start();
        return server;
    }

    @Override
    public void awaitKafka() {
        kafka.awaitStarted();
    }

    @Override
    public void awaitRedis() {
        try {
            redis.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the embedded redis-server was starting", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot start the embedded redis-server on 127.0.0.1:" + redisPort, e.getCause());
        }
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
            stopWhenStarted(redis);
        }
    }

    private static void stopWhenStarted(CompletableFuture<RedisServer> redis) {
        try {
            stopQuietly(redis.get(CLOSE_AWAITS_REDIS_SECONDS, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // it never started: nothing to stop
        } catch (TimeoutException e) {
            log.warn("embedded redis-server still starting after {} s; left to its forced stop at exit",
                    CLOSE_AWAITS_REDIS_SECONDS);
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
