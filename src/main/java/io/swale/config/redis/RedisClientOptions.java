package io.swale.config.redis;

import java.time.Duration;
import java.util.Optional;

/**
 * How each connection to a data node is opened, whatever the topology.
 *
 * @param username the ACL user
 * @param password the password
 * @param timeout the read timeout of one command
 * @param connectTimeout the time to open a connection
 * @param clientName the name set with CLIENT SETNAME
 * @param ssl whether connections use TLS
 * @param sslBundle the Spring SSL bundle that gives the TLS trust and keys (the JVM's defaults without one)
 * @param pool the connection pool per node
 */
public record RedisClientOptions(Optional<String> username, Optional<String> password, Duration timeout,
        Duration connectTimeout, Optional<String> clientName, boolean ssl, Optional<String> sslBundle,
        PoolOptions pool) {

    /** Swale's timeouts when none is set: a store call never hangs a listener thread for long. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    /**
     * The connection pool ({@code spring.data.redis.jedis.pool.*}; Swale's own defaults when unset, larger than
     * Boot's 8 because every listener thread and job holds a connection for each store call).
     *
     * @param maxActive connections open at most per node
     * @param maxIdle idle connections kept per node
     * @param minIdle idle connections kept ready per node
     * @param maxWait how long a caller waits for a free connection (negative: without bound)
     * @param timeBetweenEvictionRuns how often idle connections are checked (absent: never)
     */
    public record PoolOptions(int maxActive, int maxIdle, int minIdle, Duration maxWait,
            Optional<Duration> timeBetweenEvictionRuns) {
        public static final PoolOptions DEFAULT = new PoolOptions(64, 32, 4, Duration.ofMillis(-1), Optional.empty());
    }
}
