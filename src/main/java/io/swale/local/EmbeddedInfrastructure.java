package io.swale.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import redis.embedded.RedisServer;

/** An in-process KRaft broker and a real redis-server on free loopback ports. */
public final class EmbeddedInfrastructure implements EmbeddedServers {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedInfrastructure.class);

    private final EmbeddedKafkaKraftBroker kafka;
    private final RedisServer redis;
    private final int redisPort;

    private EmbeddedInfrastructure(EmbeddedKafkaKraftBroker kafka, RedisServer redis, int redisPort) {
        this.kafka = kafka;
        this.redis = redis;
        this.redisPort = redisPort;
    }

    public static EmbeddedInfrastructure start(int partitions) {
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
        EmbeddedKafkaKraftBroker kafka = new EmbeddedKafkaKraftBroker(1, partitions);
        Map<String, String> broker = new LinkedHashMap<>();
        broker.put("group.initial.rebalance.delay.ms", "0");
        broker.put("offsets.topic.num.partitions", "4");
        broker.put("auto.create.topics.enable", "true");
        kafka.brokerProperties(broker);
        // By default the broker publishes its address as the system property spring.kafka.bootstrap-servers,
        // which would point every later application context of this JVM at it.
        kafka.brokerListProperty("swale.embedded.kafka.brokers");
        try {
            kafka.afterPropertiesSet();
        } catch (RuntimeException e) {
            stopQuietly(redis);
            throw e;
        }
        log.info("embedded Kafka at {} and Redis at 127.0.0.1:{} started in {} ms", kafka.getBrokersAsString(),
                redisPort, (System.nanoTime() - t0) / 1_000_000);
        return new EmbeddedInfrastructure(kafka, redis, redisPort);
    }

    @Override
    public String kafkaBootstrap() {
        return kafka.getBrokersAsString();
    }

    @Override
    public int redisPort() {
        return redisPort;
    }

    @Override
    public void close() {
        try {
            kafka.destroy();
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
