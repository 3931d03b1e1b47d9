package io.swale.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.awaitility.Awaitility;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import redis.clients.jedis.Jedis;

/**
 * Run by {@link LocalModeExitIT} in a JVM of its own: local mode's initializer starts the embedded broker and
 * redis-server. It prints the Redis port as {@code redis <port>} and, by its second argument:
 * <ul>
 * <li>{@code before-refresh}: prints {@code ready} once redis-server answers and the broker serves, and never
 * refreshes the context, as a start stopped in its first seconds;</li>
 * <li>{@code context-owns}: refreshes the context, with Spring's shutdown hook and a bean that at its destruction
 * prints {@code draining}, waits for a line on its input, uses redis-server, prints the answer, as the service's
 * drain does; prints {@code ready} once refreshed.</li>
 * </ul>
 * The first argument, a port, is not used: the initializer chooses its own, which the test reads from the
 * {@code redis <port>} line.
 */
public final class LocalModeExitMain {
    private LocalModeExitMain() {
    }

    public static void main(String[] args) throws InterruptedException, ExecutionException, TimeoutException {
        String mode = args[1];
        GenericApplicationContext context = new GenericApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("exit-test",
                Map.of("swale.embedded", "true")));
        new LocalModeInitializer().initialize(context);
        int port = context.getEnvironment().getRequiredProperty("spring.data.redis.port", Integer.class);
        System.out.println("redis " + port);
        if (mode.equals("context-owns")) {
            context.registerBean("drain", AutoCloseable.class, () -> () -> drain(port));
            context.registerShutdownHook();
            context.refresh();
        } else {
            Awaitility.await().until(() -> ExitChild.answers(port));
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    context.getEnvironment().getRequiredProperty("spring.kafka.bootstrap-servers")))) {
                admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
            }
        }
        System.out.println("ready");
        new CountDownLatch(1).await(); // until a signal ends the JVM
    }

    private static void drain(int port) {
        System.out.println("draining");
        try {
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            System.out.println("at exit: " + ping(port));
        } catch (IOException | RuntimeException e) {
            System.out.println("at exit: " + e);
        }
    }

    private static String ping(int port) {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            return jedis.ping();
        }
    }
}
