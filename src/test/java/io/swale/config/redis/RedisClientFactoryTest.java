package io.swale.config.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;

/** TLS and client settings as the connections get them (no connection is opened). */
class RedisClientFactoryTest {

    private static RedisConnectionSettings settings(String... kv) {
        return RedisTopologyParserTest.parse(RedisTopologyParserTest.props(kv));
    }

    @Test
    void anSslBundleGivesTheSocketFactoryAndItsProtocols() {
        var registry = new DefaultSslBundleRegistry();
        SslBundle system = SslBundle.systemDefault();
        registry.registerBundle("redis", SslBundle.of(system.getStores(), system.getKey(),
                SslOptions.of(new String[] {"TLS_AES_128_GCM_SHA256"}, new String[] {"TLSv1.3"})));
        var clients = new RedisClientFactory(settings("ssl.bundle", "redis", "client-name", "n", "timeout", "2s"),
                Optional.of(registry));
        var config = clients.dataNodeConfig();
        assertThat(config.isSsl()).isTrue();
        assertThat(config.getSslSocketFactory()).isNotNull();
        assertThat(config.getSslParameters().getProtocols()).containsExactly("TLSv1.3");
        assertThat(config.getClientName()).isEqualTo("n");
        assertThat(config.getSocketTimeoutMillis()).isEqualTo(2000);
    }

    @Test
    void aBundleThatIsNotConfiguredIsNamed() {
        var clients = new RedisClientFactory(settings("ssl.bundle", "redis"), Optional.empty());
        assertThatThrownBy(clients::dataNodeConfig).hasMessageContaining("spring.data.redis.ssl.bundle=redis");
        var registry = new DefaultSslBundleRegistry();
        var unknown = new RedisClientFactory(settings("ssl.bundle", "other"), Optional.of(registry));
        assertThatThrownBy(unknown::dataNodeConfig).hasMessageContaining("other");
    }

    @Test
    void sentinelConnectionsUseTheSentinelsCredentials() {
        var s = settings("sentinel.master", "m", "sentinel.nodes", "a:1", "sentinel.password", "spw",
                "password", "dpw");
        var clients = new RedisClientFactory(s, Optional.empty());
        var sentinel = (RedisTopology.Sentinel) s.topology();
        assertThat(clients.sentinelConfig(sentinel).getCredentialsProvider().get().getPassword()).containsExactly("spw".toCharArray());
        assertThat(clients.dataNodeConfig().getCredentialsProvider().get().getPassword()).containsExactly("dpw".toCharArray());
    }
}
