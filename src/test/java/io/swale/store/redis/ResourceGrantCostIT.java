package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.store.ResourceStore;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;
import redis.embedded.RedisServer;

/**
 * What a lease grant costs (docs/resources.md): round trips and µs per grant + release against a local
 * redis-server, printed as [figure] lines. No timing is asserted (these run on shared machines); the
 * outcomes are.
 */
class ResourceGrantCostIT {
    private static final int N = 5_000;

    @Test
    void grantCost() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"").build();
        server.start();
        try (JedisPooled redis = new JedisPooled("127.0.0.1", port)) {
            RedisResourceStore store = new RedisResourceStore(redis, "bench", 5_000);
            cycle(store, "warm", List.of("w"), N);
            double one = cycle(store, "one", List.of("a"), N);
            double three = cycle(store, "three", List.of("a", "b", "c"), N);
            // a grant refused behind a queue of 1,000 waiters: the FIFO counts cost O(log n)
            store.grant("holder", "g", List.of("q"), 60_000, "d");
            for (int i = 0; i < 1_000; i++) {
                store.grant("w" + i, "g", List.of("q"), 60_000, "d");
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < N; i++) {
                assertThat(store.grant("late", "g", List.of("q"), 60_000, "d")).isInstanceOf(ResourceStore.Grant.Waiting.class);
            }
            double queued = (System.nanoTime() - t0) / 1_000.0 / N;
            List<ResourceStore.Holder> holders = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                store.setCapacity("r" + i, 1);
                store.grant("h" + i, "g" + i, List.of("r" + i), 60_000, "d");
                holders.add(new ResourceStore.Holder("h" + i, "g" + i));
            }
            t0 = System.nanoTime();
            for (int i = 0; i < 1_000; i++) {
                assertThat(store.renew(holders, 60_000)).isEmpty();
            }
            double renew = (System.nanoTime() - t0) / 1_000.0 / 1_000;
            System.out.printf("[figure] lease grant cost (local redis-server, shared 2-core machine, %d iterations): "
                    + "grant+release of 1 resource %.0f µs (2 round trips, 1 script each); of 3 resources %.0f µs; "
                    + "a grant refused behind 1,000 waiters %.0f µs (1 round trip); renewing 100 grants %.0f µs "
                    + "(1 round trip per heartbeat for a whole worker)%n", N, one, three, queued, renew);
        } finally {
            server.stop();
        }
    }

    /** µs per grant + release of {@code names}, each of the {@code n} by a new run id. */
    private static double cycle(RedisResourceStore store, String tag, List<String> names, int n) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            String run = tag + i;
            assertThat(store.grant(run, "g", names, 60_000, "d")).isInstanceOf(ResourceStore.Grant.Granted.class);
            assertThat(store.release(new ResourceStore.Holder(run, "g"), false).freed()).isTrue();
        }
        return (System.nanoTime() - t0) / 1_000.0 / n;
    }
}
