package io.swale.config.redis;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPoolConfig;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.JedisSentineled;
import redis.clients.jedis.UnifiedJedis;

/**
 * Builds the Jedis client for a {@link RedisConnectionSettings}: {@link JedisPooled} for one server,
 * {@link JedisSentineled} (asks the sentinels for the primary and follows {@code +switch-master}) or
 * {@link JedisCluster}, each with the timeouts, credentials and TLS of {@link RedisClientOptions}.
 */
public final class RedisClientFactory {
    private final RedisConnectionSettings settings;
    private final Optional<SslBundles> sslBundles;

    public RedisClientFactory(RedisConnectionSettings settings, Optional<SslBundles> sslBundles) {
        this.settings = settings;
        this.sslBundles = sslBundles;
    }

    public RedisConnectionSettings settings() {
        return settings;
    }

    /** The store's client, whatever the topology. */
    public UnifiedJedis unifiedJedis() {
        JedisClientConfig data = dataNodeConfig();
        return switch (settings.topology()) {
            case RedisTopology.Standalone s -> new JedisPooled(hostAndPort(s.address()), data, poolConfig());
            case RedisTopology.Sentinel s -> new JedisSentineled(s.master(), data, poolConfig(),
                    hostsAndPorts(s.sentinels()), sentinelConfig(s));
            case RedisTopology.Cluster c -> new JedisCluster(hostsAndPorts(c.nodes()), data, c.maxRedirects(),
                    poolConfig());
        };
    }

    /** How each data-node connection is opened (also used by the failover probe). */
    public JedisClientConfig dataNodeConfig() {
        RedisClientOptions o = settings.client();
        int database = switch (settings.topology()) {
            case RedisTopology.Standalone s -> s.database();
            case RedisTopology.Sentinel s -> s.database();
            case RedisTopology.Cluster c -> 0;
        };
        DefaultJedisClientConfig.Builder b = DefaultJedisClientConfig.builder()
                .user(o.username().orElse(null))
                .password(o.password().orElse(null))
                .database(database)
                .clientName(o.clientName().orElse(null))
                .socketTimeoutMillis((int) o.timeout().toMillis())
                .connectionTimeoutMillis((int) o.connectTimeout().toMillis());
        applySsl(b);
        return b.build();
    }

    /** How sentinel connections are opened: the sentinels' own credentials, the same timeouts and TLS. */
    public JedisClientConfig sentinelConfig(RedisTopology.Sentinel s) {
        RedisClientOptions o = settings.client();
        DefaultJedisClientConfig.Builder b = DefaultJedisClientConfig.builder()
                .user(s.username().orElse(null))
                .password(s.password().orElse(null))
                .socketTimeoutMillis((int) o.timeout().toMillis())
                .connectionTimeoutMillis((int) o.connectTimeout().toMillis());
        applySsl(b);
        return b.build();
    }

    private void applySsl(DefaultJedisClientConfig.Builder b) {
        if (!settings.client().ssl()) {
            return;
        }
        b.ssl(true);
        sslBundle().ifPresent(bundle -> {
            b.sslSocketFactory(socketFactory(bundle));
            sslParameters(bundle).ifPresent(b::sslParameters);
        });
    }

    /** The named Spring SSL bundle, when one is set. */
    public Optional<SslBundle> sslBundle() {
        return settings.client().sslBundle().map(name -> sslBundles
                .orElseThrow(() -> new IllegalStateException("spring.data.redis.ssl.bundle=" + name
                        + " but no spring.ssl.bundle.* is configured"))
                .getBundle(name));
    }

    static SSLSocketFactory socketFactory(SslBundle bundle) {
        return bundle.createSslContext().getSocketFactory();
    }

    static Optional<SSLParameters> sslParameters(SslBundle bundle) {
        var options = bundle.getOptions();
        if (!options.isSpecified()) {
            return Optional.empty();
        }
        SSLParameters p = new SSLParameters();
        if (options.getCiphers() != null) {
            p.setCipherSuites(options.getCiphers());
        }
        if (options.getEnabledProtocols() != null) {
            p.setProtocols(options.getEnabledProtocols());
        }
        return Optional.of(p);
    }

    GenericObjectPoolConfig<Connection> poolConfig() {
        GenericObjectPoolConfig<Connection> config = new GenericObjectPoolConfig<>();
        applyPool(config);
        return config;
    }

    void applyPool(GenericObjectPoolConfig<?> config) {
        var p = settings.client().pool();
        config.setMaxTotal(p.maxActive());
        config.setMaxIdle(p.maxIdle());
        config.setMinIdle(p.minIdle());
        config.setMaxWait(p.maxWait());
        p.timeBetweenEvictionRuns().ifPresent(config::setTimeBetweenEvictionRuns);
        // a connection broken by a failover is dropped on return instead of handed out again
        config.setTestWhileIdle(true);
    }

    static HostAndPort hostAndPort(RedisEndpoint e) {
        return new HostAndPort(e.host(), e.port());
    }

    static Set<HostAndPort> hostsAndPorts(java.util.List<RedisEndpoint> endpoints) {
        Set<HostAndPort> out = new LinkedHashSet<>();
        endpoints.forEach(e -> out.add(hostAndPort(e)));
        return out;
    }
}
