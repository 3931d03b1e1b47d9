package io.swale.local;

import io.swale.config.redis.RedisSettingsReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Local mode: when no Kafka address and no {@code spring.data.redis.*} setting at all is configured (or
 * {@code swale.embedded=true}), starts the
 * embedded broker and Redis before any bean connects, points the clients at them, and turns on the
 * {@code local} profile's behaviour (loopback binding, pools on demand, the examples folder). A jar built with
 * {@code -Pslim} has no embedded broker or redis-server: there local mode stops the start with a message.
 */
public final class LocalModeInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        ConfigurableEnvironment env = context.getEnvironment();
        if (!wantsEmbedded(env)) {
            return;
        }
        requireNoDurability(env);
        if (Boolean.getBoolean("spring.aot.processing")) {
            // the build's AOT step evaluates local mode's conditions; nothing connects, so nothing is started
            configure(context, env, NOT_STARTED, () -> { });
            // from here on, what is read is what decides the beans (SpringAotStart)
            env.getPropertySources().addFirst(new ConditionInputs.Recorder());
            return;
        }
        StartExitGuard guard = StartExitGuard.install();
        EmbeddedServers infra;
        try {
            infra = guard.guarding(startEmbedded(context.getClassLoader(),
                    env.getProperty("swale.kafka.partitions", Integer.class, 4)));
        } catch (RuntimeException | Error e) {
            guard.nothingStarted();
            throw e;
        }
        try {
            configure(context, env, infra, guard::closeServers);
            // once the context builds beans, its close (a failed refresh's too) stops the servers
            context.addBeanFactoryPostProcessor(beanFactory -> guard.handOver());
        } catch (RuntimeException | Error e) {
            // a context that never refreshed destroys no bean: the servers are still this method's to stop
            try {
                guard.closeServers();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /**
     * The embedded redis-server has no replica and no AOF: {@code wait} would fail every write and {@code fsync}
     * the start, each with a Redis error; this says why before anything starts.
     */
    static void requireNoDurability(ConfigurableEnvironment env) {
        String durability = env.getProperty("swale.redis.durability", "none").strip();
        if (!durability.equalsIgnoreCase("none")) {
            throw new IllegalStateException("swale.redis.durability=" + durability + " needs a Redis of your own:"
                    + " local mode's embedded redis-server has no replica and no AOF, so only `none` works there."
                    + " Set spring.data.redis.* (docs/operations.md, \"Durable writes\") or leave the setting out");
        }
    }

    static void configure(ConfigurableApplicationContext context, ConfigurableEnvironment env,
            EmbeddedServers infra, Runnable closeServers) {
        boolean localProfile = keepsLocalProfile(env);
        env.getPropertySources().addFirst(new MapPropertySource("swaleEmbedded", embeddedProperties(env, infra)));
        if (localProfile && !env.acceptsProfiles(org.springframework.core.env.Profiles.of("local"))) {
            env.addActiveProfile("local");
        }
        // Registered before any bean, so destroyed after every bean: clients stop before the broker goes away.
        ((org.springframework.beans.factory.support.DefaultSingletonBeanRegistry) context.getBeanFactory())
                .registerDisposableBean("swaleEmbeddedInfrastructure", closeServers::run);
        // redis-server starts while the beans are built too; every Redis connection is built from the one
        // RedisClientFactory, so that bean waits for it, however early something asks for it.
        context.getBeanFactory().addBeanPostProcessor(new EmbeddedRedisGate(infra::awaitRedis));
        // The broker starts while the beans are built; the first definition of the context waits for it once
        // they are, before any bean's own after-singletons step (topic creation) or lifecycle start (listeners).
        // It waits for redis-server as well: a failed start fails the context even if nothing asked for Redis.
        EmbeddedKafkaGate.Wait awaitBoth = () -> {
            infra.awaitRedis();
            infra.awaitKafka();
        };
        if (context instanceof GenericApplicationContext generic) {
            generic.getBeanFactory().registerSingleton(EmbeddedKafkaGate.WAIT_BEAN_NAME, awaitBoth);
            // a start from the build's AOT definitions has registered it already, first as here
            if (!generic.containsBeanDefinition(EmbeddedKafkaGate.BEAN_NAME)) {
                RootBeanDefinition gate = new RootBeanDefinition(EmbeddedKafkaGate.class);
                gate.setAutowireMode(AbstractBeanDefinition.AUTOWIRE_CONSTRUCTOR);
                generic.registerBeanDefinition(EmbeddedKafkaGate.BEAN_NAME, gate);
            }
        } else {
            awaitBoth.await();
        }
    }

    /**
     * The settings local mode puts before every other: the servers' addresses and, with the local profile, what
     * {@code application-local.yml} says (it is read before this initializer adds the profile).
     */
    static Map<String, Object> embeddedProperties(ConfigurableEnvironment env, EmbeddedServers infra) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("spring.kafka.bootstrap-servers", infra.kafkaBootstrap());
        props.put("spring.data.redis.host", "127.0.0.1");
        props.put("spring.data.redis.port", infra.redisPort());
        if (keepsLocalProfile(env)) {
            props.put("swale.auto-create-pools", env.getProperty("swale.auto-create-pools", "true"));
            props.put("swale.examples", env.getProperty("swale.examples", "examples"));
            props.put("server.address", env.getProperty("server.address", "127.0.0.1"));
            props.put("management.endpoint.health.show-details", "always");
        }
        return props;
    }

    /**
     * {@code swale.local-profile=false} keeps the embedded infrastructure without the local profile's openness
     * (used to test security outside local on embedded Kafka and Redis): no loopback binding, no pools on demand,
     * no examples, unless set.
     */
    static boolean keepsLocalProfile(ConfigurableEnvironment env) {
        return env.getProperty("swale.local-profile", Boolean.class, true);
    }

    /** What the build's AOT step configures local mode with: addresses no bean uses while the step runs. */
    static final EmbeddedServers NOT_STARTED = new EmbeddedServers() {
        @Override
        public String kafkaBootstrap() {
            return "127.0.0.1:9092";
        }

        @Override
        public int redisPort() {
            return 6379;
        }

        @Override
        public void awaitRedis() {
        }

        @Override
        public void awaitKafka() {
        }

        @Override
        public void close() {
        }
    };

    private static final String EMBEDDED_INFRASTRUCTURE = "io.swale.local.EmbeddedInfrastructure";

    /** Classes a jar built with -Pslim leaves out: checked before any of them is touched. */
    static final List<String> EMBEDDED_CLASSES = List.of(EMBEDDED_INFRASTRUCTURE,
            "org.springframework.kafka.test.EmbeddedKafkaKraftBroker", "redis.embedded.RedisServer",
            // what LoopbackKraftBroker builds the broker with (from spring-kafka-test's dependencies)
            "org.apache.kafka.common.test.KafkaClusterTestKit");

    /** {@code EmbeddedInfrastructure.starting(partitions)}, called by name so that this class compiles without it (-Pslim). */
    private static EmbeddedServers startEmbedded(ClassLoader loader, int partitions) {
        requireEmbeddedClasses(loader);
        Method start;
        try {
            start = ClassUtils.forName(EMBEDDED_INFRASTRUCTURE, loader).getMethod("starting", int.class);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("cannot load " + EMBEDDED_INFRASTRUCTURE, e);
        }
        try {
            return (EmbeddedServers) start.invoke(null, partitions);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static void requireEmbeddedClasses(ClassLoader loader) {
        for (String name : EMBEDDED_CLASSES) {
            if (!ClassUtils.isPresent(name, loader)) {
                throw new IllegalStateException("local mode needs the embedded Kafka broker and redis-server, which this"
                        + " build of Swale leaves out (it was packaged with -Pslim; " + name + " is missing): set"
                        + " spring.kafka.bootstrap-servers and spring.data.redis.host (or spring.data.redis.url), or use"
                        + " the jar of ./mvnw package without -Pslim");
            }
        }
    }

    static boolean wantsEmbedded(ConfigurableEnvironment env) {
        String explicit = env.getProperty("swale.embedded", "auto").strip();
        if (explicit.equalsIgnoreCase("true") || explicit.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(explicit);
        }
        if (!explicit.equalsIgnoreCase("auto")) {
            // read as false, a typo would send the clients to a Kafka and a Redis that are not there
            throw new IllegalStateException("swale.embedded=" + explicit + " is none of auto, true and false");
        }
        // any Redis setting (a Sentinel or Cluster one too, in any relaxed form or as an environment variable)
        // means a Redis is meant: local mode would silently put the store on an embedded one instead
        return !env.containsProperty("spring.kafka.bootstrap-servers")
                && RedisSettingsReader.givenNames(env).isEmpty();
    }
}
