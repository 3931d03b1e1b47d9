package io.swale.config.redis;

import java.util.List;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import redis.clients.jedis.JedisPoolConfig;

/**
 * Spring Data's {@link JedisConnectionFactory} on the same checked topology as the store, so that what reads
 * Redis through Spring (ShedLock's lock provider, the {@code redis} health indicator) cannot end up on another
 * server than the store: Boot's own factory would read {@code spring.data.redis.*} with its own precedence
 * rules.
 */
public final class SpringRedisConnections {

    private SpringRedisConnections() {
    }

    public static JedisConnectionFactory connectionFactory(RedisClientFactory clients) {
        RedisConnectionSettings settings = clients.settings();
        RedisClientOptions o = settings.client();
        var builder = JedisClientConfiguration.builder()
                .connectTimeout(o.connectTimeout())
                .readTimeout(o.timeout());
        o.clientName().ifPresent(builder::clientName);
        JedisPoolConfig pool = new JedisPoolConfig();
        // ShedLock and the health check need few connections
        pool.setMaxTotal(Math.min(8, Math.max(1, o.pool().maxActive())));
        builder.usePooling().poolConfig(pool);
        if (o.ssl()) {
            var ssl = builder.useSsl();
            clients.sslBundle().ifPresent(bundle -> {
                ssl.sslSocketFactory(RedisClientFactory.socketFactory(bundle));
                RedisClientFactory.sslParameters(bundle).ifPresent(ssl::sslParameters);
            });
        }
        JedisClientConfiguration client = builder.build();
        RedisPassword password = o.password().map(RedisPassword::of).orElse(RedisPassword.none());
        String username = o.username().orElse(null);
        return switch (settings.topology()) {
            case RedisTopology.Standalone s -> {
                var c = new RedisStandaloneConfiguration(s.address().host(), s.address().port());
                c.setDatabase(s.database());
                c.setUsername(username);
                c.setPassword(password);
                yield new JedisConnectionFactory(c, client);
            }
            case RedisTopology.Sentinel s -> {
                var c = new RedisSentinelConfiguration();
                c.master(s.master());
                c.setSentinels(nodes(s.sentinels()));
                c.setDatabase(s.database());
                c.setUsername(username);
                c.setPassword(password);
                s.username().ifPresent(c::setSentinelUsername);
                s.password().ifPresent(p -> c.setSentinelPassword(RedisPassword.of(p)));
                yield new JedisConnectionFactory(c, client);
            }
            case RedisTopology.Cluster cl -> {
                var c = new RedisClusterConfiguration();
                c.setClusterNodes(nodes(cl.nodes()));
                c.setMaxRedirects(cl.maxRedirects());
                c.setUsername(username);
                c.setPassword(password);
                yield new JedisConnectionFactory(c, client);
            }
        };
    }

    private static List<RedisNode> nodes(List<RedisEndpoint> endpoints) {
        return endpoints.stream().map(e -> new RedisNode(e.host(), e.port())).toList();
    }
}
