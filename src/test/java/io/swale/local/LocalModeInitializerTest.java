package io.swale.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;

/** Local mode in a jar built with -Pslim, which has neither the embedded broker nor redis-server. */
class LocalModeInitializerTest {

    /** Hides the embedded broker's and redis-server's classes, as the slim jar does. */
    private static final class SlimClassLoader extends ClassLoader {
        SlimClassLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.springframework.kafka.test.") || name.startsWith("redis.embedded.")) {
                throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
        }
    }

    @Test
    void localModeWithoutTheEmbeddedClassesStopsTheStartWithAMessage() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.setClassLoader(new SlimClassLoader(getClass().getClassLoader()));
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", Map.of("swale.embedded", "true")));

            assertThatThrownBy(() -> new LocalModeInitializer().initialize(context))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("-Pslim")
                    .hasMessageContaining("spring.kafka.bootstrap-servers")
                    .hasMessageContaining("org.springframework.kafka.test.EmbeddedKafkaKraftBroker");
        }
    }

    @Test
    void aDurabilityTheEmbeddedRedisCannotGiveStopsTheStartBeforeAnythingStarts() {
        for (String durability : List.of("wait", " FSYNC ")) {
            try (GenericApplicationContext context = new GenericApplicationContext()) {
                context.setClassLoader(new SlimClassLoader(getClass().getClassLoader()));
                context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test",
                        Map.of("swale.embedded", "true", "swale.redis.durability", durability)));

                // the slim loader would fail a start that got further: this message comes first
                assertThatThrownBy(() -> new LocalModeInitializer().initialize(context))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("swale.redis.durability=" + durability.strip())
                        .hasMessageContaining("only `none` works there");
            }
        }
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test",
                    Map.of("swale.redis.durability", "None")));
            assertThatCode(() -> LocalModeInitializer.requireNoDurability(context.getEnvironment()))
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void theDefaultBuildHasThem() {
        assertThatCode(() -> LocalModeInitializer.requireEmbeddedClasses(getClass().getClassLoader()))
                .doesNotThrowAnyException();
    }

    private static org.springframework.core.env.StandardEnvironment env(Map<String, Object> props, Map<String, Object> envVars) {
        var env = new org.springframework.core.env.StandardEnvironment();
        env.getPropertySources().remove("systemEnvironment");
        env.getPropertySources().remove("systemProperties");
        env.getPropertySources().addFirst(new MapPropertySource("test", props));
        env.getPropertySources().addLast(new org.springframework.core.env.SystemEnvironmentPropertySource(
                "systemEnvironment", envVars));
        return env;
    }

    @Test
    void localModeOnlyWithoutAnyRedisSetting() {
        assertThat(LocalModeInitializer.wantsEmbedded(env(Map.of(), Map.of()))).isTrue();
        for (String key : List.of("spring.data.redis.host", "spring.data.redis.url", "spring.data.redis.port",
                "spring.data.redis.sentinel.master", "spring.data.redis.sentinel.nodes[0]",
                "spring.data.redis.cluster.nodes", "spring.data.redis.password", "spring.data.redis.timeout",
                "spring.data.redis.lettuce.read-from", "spring.redis.host")) {
            assertThat(LocalModeInitializer.wantsEmbedded(env(Map.of(key, "x"), Map.of()))).as(key).isFalse();
        }
        assertThat(LocalModeInitializer.wantsEmbedded(env(Map.of("spring.kafka.bootstrap-servers", "k:9092"),
                Map.of()))).isFalse();
    }

    @Test
    void environmentVariablesCountThroughRelaxedBinding() {
        for (String var : List.of("SPRING_DATA_REDIS_SENTINEL_MASTER", "SPRING_DATA_REDIS_SENTINEL_NODES",
                "SPRING_DATA_REDIS_CLUSTER_NODES", "SPRING_DATA_REDIS_CLUSTER_MAXREDIRECTS", "SPRING_DATA_REDIS_URL")) {
            assertThat(LocalModeInitializer.wantsEmbedded(env(Map.of(), Map.of(var, "a:1")))).as(var).isFalse();
        }
        // not a Redis setting
        assertThat(LocalModeInitializer.wantsEmbedded(env(Map.of(), Map.of("SPRING_DATASOURCE_URL", "x")))).isTrue();
        assertThat(LocalModeInitializer.wantsEmbedded(env(Map.of("swale.embedded", "true",
                "spring.data.redis.host", "r"), Map.of()))).isTrue();
    }
    /** Was: any value but `auto` was read as a boolean, so `AUTO`, `yes` or `1` meant "never embed". */
    @Test
    void swaleEmbeddedIsAutoTrueOrFalseInAnyCaseAndAnythingElseStopsTheStart() {
        assertThat(LocalModeInitializer.wantsEmbedded(env(Map.of("swale.embedded", "AUTO"), Map.of()))).isTrue();
        assertThat(LocalModeInitializer.wantsEmbedded(env(Map.of("swale.embedded", " TRUE ",
                "spring.data.redis.host", "r"), Map.of()))).isTrue();
        assertThat(LocalModeInitializer.wantsEmbedded(env(Map.of("swale.embedded", "False"), Map.of()))).isFalse();
        for (String value : List.of("yes", "1", "on", "")) {
            assertThatThrownBy(() -> LocalModeInitializer.wantsEmbedded(env(Map.of("swale.embedded", value), Map.of())))
                    .as(value).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("swale.embedded=" + value).hasMessageContaining("auto, true and false");
        }
    }

    private static final class NoServers implements EmbeddedServers {
        @Override
        public String kafkaBootstrap() {
            return "127.0.0.1:1";
        }

        @Override
        public int redisPort() {
            return 1;
        }

        @Override
        public void awaitRedis() {}

        @Override
        public void awaitKafka() {}

        @Override
        public void close() {}
    }

    /**
     * swale.local-profile=false keeps the embedded servers without the local profile's openness. Was: it still bound
     * to loopback only, created pools on demand and published the examples folder.
     */
    @Test
    void withoutTheLocalProfileNeitherLoopbackNorPoolsOnDemandNorExamples() {
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test",
                    Map.of("swale.local-profile", "false")));
            LocalModeInitializer.configure(context, context.getEnvironment(), new NoServers(), () -> {});
            var env = context.getEnvironment();
            assertThat(env.getProperty("spring.kafka.bootstrap-servers")).isEqualTo("127.0.0.1:1");
            assertThat(env.getProperty("server.address")).isNull();
            assertThat(env.getProperty("swale.auto-create-pools")).isNull();
            assertThat(env.getProperty("swale.examples")).isNull();
            assertThat(env.getActiveProfiles()).doesNotContain("local");
        }
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            LocalModeInitializer.configure(context, context.getEnvironment(), new NoServers(), () -> {});
            var env = context.getEnvironment();
            assertThat(env.getProperty("server.address")).isEqualTo("127.0.0.1");
            assertThat(env.getProperty("swale.auto-create-pools")).isEqualTo("true");
            assertThat(env.getProperty("swale.examples")).isEqualTo("examples");
            assertThat(env.getActiveProfiles()).contains("local");
        }
    }
}
