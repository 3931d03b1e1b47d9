package io.swale.config.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Every spring.data.redis.* property Boot documents: honoured, or refused with its name. */
class RedisTopologyParserTest {

    /** Binds like Boot and parses; the names are the keys given. */
    static RedisConnectionSettings parse(Map<String, String> given) {
        var env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("test", new LinkedHashMap<>(given)));
        return RedisSettingsReader.read(env);
    }

    static Map<String, String> props(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put("spring.data.redis." + kv[i], kv[i + 1]);
        }
        return m;
    }

    static void refused(Map<String, String> given, String... fragments) {
        assertThatThrownBy(() -> parse(given)).isInstanceOf(InvalidRedisSettingsException.class)
                .satisfies(e -> {
                    for (String f : fragments) {
                        assertThat(e.getMessage()).contains(f);
                    }
                });
    }

    @Test
    void nothingGivenIsLocalhostStandalone() {
        var s = parse(Map.of());
        assertThat(s.topology()).isEqualTo(new RedisTopology.Standalone(new RedisEndpoint("localhost", 6379), 0));
        assertThat(s.client().timeout()).isEqualTo(RedisClientOptions.DEFAULT_TIMEOUT);
        assertThat(s.client().pool()).isEqualTo(RedisClientOptions.PoolOptions.DEFAULT);
        assertThat(s.client().ssl()).isFalse();
    }

    @Test
    void standaloneHonoursEveryClientSetting() {
        var s = parse(props("host", "r1", "port", "6380", "database", "3", "username", "app", "password", "pw",
                "timeout", "2s", "connect-timeout", "750ms", "client-name", "swale-a", "client-type", "jedis",
                "ssl.enabled", "true", "jedis.pool.max-active", "20", "jedis.pool.max-idle", "10",
                "jedis.pool.min-idle", "2", "jedis.pool.max-wait", "3s", "jedis.pool.time-between-eviction-runs",
                "30s", "jedis.pool.enabled", "true", "repositories.enabled", "false"));
        assertThat(s.topology()).isEqualTo(new RedisTopology.Standalone(new RedisEndpoint("r1", 6380), 3));
        var c = s.client();
        assertThat(c.username()).contains("app");
        assertThat(c.password()).contains("pw");
        assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.connectTimeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(c.clientName()).contains("swale-a");
        assertThat(c.ssl()).isTrue();
        assertThat(c.pool()).isEqualTo(new RedisClientOptions.PoolOptions(20, 10, 2, Duration.ofSeconds(3),
                Optional.of(Duration.ofSeconds(30))));
    }

    @Test
    void urlGivesServerCredentialsDatabaseAndTls() {
        var s = parse(props("url", "rediss://app:p%40ss@cache.example:6390/2"));
        assertThat(s.topology()).isEqualTo(new RedisTopology.Standalone(new RedisEndpoint("cache.example", 6390), 2));
        assertThat(s.client().username()).contains("app");
        assertThat(s.client().password()).contains("p@ss");
        assertThat(s.client().ssl()).isTrue();
        assertThat(parse(props("url", "redis://:secret@h")).client().password()).contains("secret");
    }

    @Test
    void sentinelWithItsOwnCredentials() {
        var s = parse(props("sentinel.master", "mymaster", "sentinel.nodes", "s1:26379,s2:26379, s3:26380",
                "sentinel.username", "sen", "sentinel.password", "spw", "password", "datapw", "database", "1"));
        assertThat(s.topology()).isEqualTo(new RedisTopology.Sentinel("mymaster", List.of(
                new RedisEndpoint("s1", 26379), new RedisEndpoint("s2", 26379), new RedisEndpoint("s3", 26380)),
                Optional.of("sen"), Optional.of("spw"), 1));
        assertThat(s.client().password()).contains("datapw");
    }

    @Test
    void cluster() {
        var s = parse(props("cluster.nodes", "c1:7000,c2:7001,[::1]:7002", "cluster.max-redirects", "3"));
        assertThat(s.topology()).isEqualTo(new RedisTopology.Cluster(List.of(new RedisEndpoint("c1", 7000),
                new RedisEndpoint("c2", 7001), new RedisEndpoint("::1", 7002)), 3));
    }

    @Test
    void environmentVariablesBindByRelaxedNames() {
        var env = new StandardEnvironment();
        env.getPropertySources().addFirst(new SystemEnvironmentPropertySource("systemEnvironment", Map.of(
                "SPRING_DATA_REDIS_SENTINEL_MASTER", "m", "SPRING_DATA_REDIS_SENTINEL_NODES", "a:1,b:2",
                "SPRING_DATA_REDIS_CLIENTNAME", "x", "SPRING_DATA_REDIS_CONNECT_TIMEOUT", "3s",
                "SPRING_DATA_REDIS_JEDIS_POOL_MAX_ACTIVE", "9")));
        var s = RedisSettingsReader.read(env);
        assertThat(s.topology()).isInstanceOf(RedisTopology.Sentinel.class);
        assertThat(s.client().clientName()).contains("x");
        assertThat(s.client().connectTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(s.client().pool().maxActive()).isEqualTo(9);
        assertThat(RedisSettingsReader.givenNames(env)).isNotEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"lettuce.pool.max-active", "lettuce.shutdown-timeout", "lettuce.read-from",
            "lettuce.cluster.refresh.period", "lettuce.cluster.refresh.adaptive",
            "lettuce.cluster.refresh.dynamic-refresh-sources", "lettuce.pool.enabled"})
    void lettuceSettingsAreRefusedByName(String name) {
        refused(props(name, "1"), "spring.data.redis." + name, "Jedis");
    }

    @Test
    void refusedNames() {
        refused(props("masterreplica.nodes", "a:1"), "spring.data.redis.masterreplica.nodes", "sentinel");
        refused(props("ssl", "true"), "spring.data.redis.ssl:", "ssl.enabled");
        refused(props("hots", "r1"), "spring.data.redis.hots", "not a Redis property");
        refused(Map.of("spring.redis.host", "r1"), "spring.redis.host", "spring.data.redis.host");
    }

    @Test
    void refusedValues() {
        refused(props("client-type", "lettuce"), "client-type=lettuce");
        refused(props("jedis.pool.enabled", "false"), "jedis.pool.enabled=false");
        refused(props("timeout", "0s"), "spring.data.redis.timeout=PT0S");
        refused(props("connect-timeout", "-1s"), "spring.data.redis.connect-timeout");
        refused(props("url", "http://h:1"), "redis:// or rediss://");
        refused(props("url", "redis://h:1/x"), "database number");
        refused(props("url", "redis://u:secret@h:1/x"), "u:***@");
        refused(props("port", "0"), "spring.data.redis.host/port");
        refused(props("database", "-1"), "database=-1");
    }

    @Test
    void conflictsAreRefusedByName() {
        refused(props("sentinel.master", "m", "sentinel.nodes", "s:1", "cluster.nodes", "c:1"),
                "spring.data.redis.sentinel.master", "spring.data.redis.cluster.nodes", "both given");
        refused(props("url", "redis://h:1", "host", "other"), "url and spring.data.redis.host");
        refused(props("url", "redis://h:1", "port", "2"), "url and spring.data.redis.port");
        refused(props("url", "redis://h:1", "password", "x"), "url and spring.data.redis.password");
        refused(props("url", "redis://h:1", "username", "x"), "url and spring.data.redis.username");
        refused(props("url", "redis://h:1", "database", "1"), "url and spring.data.redis.database");
        refused(props("url", "redis://h:1", "cluster.nodes", "c:1"), "url together with spring.data.redis.cluster");
        refused(props("url", "rediss://h:1", "ssl.enabled", "false"), "rediss://");
        refused(props("host", "h", "sentinel.master", "m", "sentinel.nodes", "s:1"),
                "spring.data.redis.host with sentinel");
        refused(props("port", "1", "cluster.nodes", "c:1"), "spring.data.redis.port with cluster");
        refused(props("cluster.nodes", "c:1", "database", "2"), "database=2 with cluster.nodes");
        refused(props("ssl.bundle", "b", "ssl.enabled", "false"), "ssl.bundle with");
    }

    @Test
    void incompleteTopologiesAreRefused() {
        refused(props("sentinel.nodes", "s:1"), "without spring.data.redis.sentinel.master");
        refused(props("sentinel.password", "x"), "spring.data.redis.sentinel.password given without");
        refused(props("sentinel.master", "m"), "sentinel.nodes is empty");
        refused(props("sentinel.master", "m", "sentinel.nodes", "nohostport"), "'nohostport' is not host:port");
        refused(props("cluster.max-redirects", "3"), "cluster.nodes is empty");
        refused(props("cluster.nodes", "c:1", "cluster.max-redirects", "0"), "max-redirects=0");
        refused(props("cluster.nodes", "c:x"), "no numeric port");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        assertThatThrownBy(() -> parse(props("client-type", "lettuce", "cluster.nodes", "c:1", "database", "4")))
                .isInstanceOfSatisfying(InvalidRedisSettingsException.class,
                        e -> assertThat(e.problems()).hasSize(2));
    }

    @Test
    void everyPropertyBootDocumentsIsClassified() throws Exception {
        // the names in spring-boot-data-redis's own metadata: none may fall through as unknown
        var names = new java.util.TreeSet<String>();
        var pattern = java.util.regex.Pattern.compile("\"name\"\\s*:\\s*\"(spring\\.data\\.redis\\.[^\"]+)\"");
        var resources = DataRedisProperties.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json");
        while (resources.hasMoreElements()) {
            try (var in = resources.nextElement().openStream()) {
                var m = pattern.matcher(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        assertThat(names).contains("spring.data.redis.url", "spring.data.redis.lettuce.read-from");
        // groups ("spring.data.redis.cluster") are listed too: only leaves are properties
        names.removeIf(n -> names.stream().anyMatch(o -> o.startsWith(n + ".")) && !n.equals("spring.data.redis.ssl"));
        assertThat(names).hasSizeGreaterThan(30);
        for (String name : names) {
            assertThat(RedisPropertyRules.refusals(java.util.Set.of(name)))
                    .as(name).noneMatch(r -> r.contains("not a Redis property"));
        }
    }
}
