package io.swale.local;

import redis.clients.jedis.Jedis;

/**
 * Run by {@link EmbeddedRedisIT} in a JVM of its own: starts the embedded redis-server on the port it is given and
 * prints {@code ready}; at exit, in a shutdown hook of its own as Spring's is, it still uses the server (as the
 * service's drain does, here for half a second) and prints the answer, then closes it.
 */
public final class EmbeddedRedisExitMain {
    private EmbeddedRedisExitMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = Integer.parseInt(args[0]);
        EmbeddedRedis redis = EmbeddedRedis.starting(port);
        redis.awaitStarted();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                Thread.sleep(500); // the drain's length, so that a server stopped at the exit's start is gone
                System.out.println("at exit: " + jedis.ping());
            } catch (InterruptedException | RuntimeException e) {
                System.out.println("at exit: " + e);
            }
            redis.close();
            System.out.println("closed");
        }));
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }
}
