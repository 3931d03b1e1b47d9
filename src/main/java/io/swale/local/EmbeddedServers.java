package io.swale.local;

/**
 * What local mode uses of {@code EmbeddedInfrastructure}, the in-process broker and redis-server. Local mode
 * reaches that class by name only: a jar built with {@code -Pslim} has neither it nor the libraries it needs.
 */
interface EmbeddedServers extends AutoCloseable {
    String kafkaBootstrap();

    int redisPort();

    /** Blocks until redis-server, which may still be starting, serves; throws, naming it, if it could not start. */
    void awaitRedis();

    /** Blocks until the broker, which may still be starting, serves; throws if it could not start. */
    void awaitKafka();

    @Override
    void close();
}
