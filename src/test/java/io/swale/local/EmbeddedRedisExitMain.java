package io.swale.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import redis.clients.jedis.Jedis;

/**
 * Run by {@link EmbeddedRedisIT} in a JVM of its own: starts the embedded redis-server on the port it is given,
 * prints {@code ready}, and then, by its second argument:
 * <ul>
 * <li>{@code hook-closes}: at exit, in a shutdown hook of its own as Spring's is, it prints {@code draining} and
 * waits for a line on its input (the test checks meanwhile that the server serves), then still uses the server,
 * as the service's drain does, prints the answer, and closes it;</li>
 * <li>{@code nobody-closes}: nothing closes the server;</li>
 * <li>{@code closes-then-exits}: closes the server, then exits;</li>
 * <li>{@code is-killed}: waits for the test to kill it with SIGKILL, which runs no shutdown hook.</li>
 * </ul>
 */
public final class EmbeddedRedisExitMain {
    private EmbeddedRedisExitMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]);
        String mode = args[1];
        EmbeddedRedis redis = EmbeddedRedis.starting(port);
        redis.awaitStarted();
        if (mode.equals("hook-closes")) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                System.out.println("draining");
                try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                    System.out.println("at exit: " + jedis.ping());
                } catch (IOException | RuntimeException e) {
                    System.out.println("at exit: " + e);
                }
                redis.close();
                System.out.println("closed");
            }));
        }
        System.out.println("ready");
        if (mode.equals("closes-then-exits")) {
            redis.close();
            System.out.println("closed");
            System.exit(0);
        }
        new CountDownLatch(1).await(); // until a signal ends the JVM
    }
}
