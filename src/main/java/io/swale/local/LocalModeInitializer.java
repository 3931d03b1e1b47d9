package io.swale.local;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Local mode: when no Kafka or Redis address is configured (or {@code swale.embedded=true}), starts the
 * embedded broker and Redis before any bean connects, points the clients at them, and turns on the
 * {@code local} profile's behaviour (loopback binding, pools on demand, the examples folder).
 */
public final class LocalModeInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        ConfigurableEnvironment env = context.getEnvironment();
        if (!wantsEmbedded(env)) {
            return;
        }
        EmbeddedInfrastructure infra = EmbeddedInfrastructure.start(env.getProperty("swale.kafka.partitions", Integer.class, 4));
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("spring.kafka.bootstrap-servers", infra.kafkaBootstrap());
        props.put("spring.data.redis.host", "127.0.0.1");
        props.put("spring.data.redis.port", infra.redisPort());
        props.put("swale.auto-create-pools", env.getProperty("swale.auto-create-pools", "true"));
        props.put("swale.examples", env.getProperty("swale.examples", "examples"));
        props.put("server.address", env.getProperty("server.address", "127.0.0.1"));
        // swale.local-profile=false keeps the embedded infrastructure without the local profile's openness
        // (used to test security outside local on embedded Kafka and Redis).
        boolean localProfile = env.getProperty("swale.local-profile", Boolean.class, true);
        if (localProfile) {
            // application-local.yml is read before this initializer adds the profile: repeat what it says.
            props.put("management.endpoint.health.show-details", "always");
        }
        env.getPropertySources().addFirst(new MapPropertySource("swaleEmbedded", props));
        if (localProfile && !env.acceptsProfiles(org.springframework.core.env.Profiles.of("local"))) {
            env.addActiveProfile("local");
        }
        // Registered before any bean, so destroyed after every bean: clients stop before the broker goes away.
        ((org.springframework.beans.factory.support.DefaultSingletonBeanRegistry) context.getBeanFactory())
                .registerDisposableBean("swaleEmbeddedInfrastructure", infra::close);
    }

    static boolean wantsEmbedded(ConfigurableEnvironment env) {
        String explicit = env.getProperty("swale.embedded", "auto");
        if (!"auto".equals(explicit)) {
            return Boolean.parseBoolean(explicit);
        }
        return !env.containsProperty("spring.kafka.bootstrap-servers")
                && !env.containsProperty("spring.data.redis.host")
                && !env.containsProperty("spring.data.redis.url");
    }
}
