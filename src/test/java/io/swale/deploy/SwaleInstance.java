package io.swale.deploy;

import io.swale.SwaleApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.web.context.support.StandardServletEnvironment;
import redis.embedded.RedisServer;

/** One Swale process started in this JVM with a given set of environment variables and nothing else. */
final class SwaleInstance implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final String name;
    final Map<String, String> environment;
    private final ConfigurableApplicationContext context;
    private final int port;

    private SwaleInstance(String name, Map<String, String> environment, ConfigurableApplicationContext context) {
        this.name = name;
        this.environment = environment;
        this.context = context;
        this.port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    /**
     * Starts SwaleApplication whose only configuration source besides application.yml is {@code environment},
     * bound exactly as Spring Boot binds operating-system variables (relaxed names, SPRING_APPLICATION_JSON).
     * The JVM's system properties and real environment are left out.
     */
    static SwaleInstance start(String name, Map<String, String> environment) {
        StandardServletEnvironment env = new StandardServletEnvironment();
        MutablePropertySources sources = env.getPropertySources();
        sources.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        sources.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new LinkedHashMap<>(environment)));
        SpringApplication app = new SpringApplication(SwaleApplication.class);
        app.setEnvironment(env);
        app.setRegisterShutdownHook(false);
        return new SwaleInstance(name, Map.copyOf(environment), app.run());
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    HttpResponse<String> post(String path, String contentType, String body) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        // The token the deploy files give every role; the API will ask for it once security lands.
        String token = environment.get("SWALE_SECURITY_TOKEN");
        if (token != null && !token.isBlank()) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        context.close();
    }

    @Override
    public String toString() {
        return name + " on port " + port;
    }

    /** A KRaft cluster and a redis-server on loopback ports; topics are created by Swale, never on demand. */
    static final class Infrastructure implements AutoCloseable {
        final EmbeddedKafkaKraftBroker kafka;
        final RedisServer redis;
        final int redisPort;

        private Infrastructure(EmbeddedKafkaKraftBroker kafka, RedisServer redis, int redisPort) {
            this.kafka = kafka;
            this.redis = redis;
            this.redisPort = redisPort;
        }

        static Infrastructure start(int brokers) throws IOException {
            int redisPort = freePort();
            RedisServer redis = RedisServer.newRedisServer()
                    .port(redisPort)
                    .bind("127.0.0.1")
                    .setting("appendonly no")
                    .setting("save \"\"")
                    .onShutdownForceStop(true)
                    .build();
            redis.start();
            EmbeddedKafkaKraftBroker kafka = new EmbeddedKafkaKraftBroker(brokers, 4);
            // Left at its default the broker sets the system property spring.kafka.bootstrap-servers, which
            // would turn off local mode in every later test context of this JVM.
            kafka.brokerListProperty("swale.test.kafka.brokers");
            kafka.brokerProperties(Map.of(
                    "group.initial.rebalance.delay.ms", "0",
                    "offsets.topic.num.partitions", "4",
                    "offsets.topic.replication.factor", String.valueOf(Math.min(brokers, 3)),
                    "auto.create.topics.enable", "false"));
            try {
                kafka.afterPropertiesSet();
            } catch (RuntimeException e) {
                redis.stop();
                throw e;
            }
            return new Infrastructure(kafka, redis, redisPort);
        }

        String bootstrap() {
            return kafka.getBrokersAsString();
        }

        @Override
        public void close() throws IOException {
            try {
                kafka.destroy();
            } finally {
                redis.stop();
            }
        }

        private static int freePort() {
            try (ServerSocket s = new ServerSocket(0)) {
                return s.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
