package io.swale.store.redis;

import static org.awaitility.Awaitility.await;

import io.swale.config.RedisClients;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.UnifiedJedis;
import redis.embedded.RedisServer;

/**
 * A real 3-primary Redis Cluster on loopback, from the redis-server that embedded-redis ships: three processes
 * with {@code cluster-enabled yes}, the 16384 slots split between them with CLUSTER ADDSLOTS, joined with
 * CLUSTER MEET. Redis Cluster refuses any script or MULTI whose keys are in two slots (CROSSSLOT), so a store
 * test run here fails on any atomic unit that spans slots.
 */
public final class TestRedisCluster implements AutoCloseable {
    private static final int SLOTS = 16384;
    private final List<RedisServer> servers;
    private final Set<HostAndPort> nodes;
    private final Path dir;
    /** The cluster client the stores run on. */
    public final UnifiedJedis redis;

    private TestRedisCluster(List<RedisServer> servers, Set<HostAndPort> nodes, Path dir, UnifiedJedis redis) {
        this.servers = servers;
        this.nodes = nodes;
        this.dir = dir;
        this.redis = redis;
    }

    public static TestRedisCluster start() throws IOException {
        Path dir = Files.createTempDirectory("swale-cluster");
        List<RedisServer> servers = new ArrayList<>();
        Set<HostAndPort> nodes = new LinkedHashSet<>();
        try {
            for (int i = 0; i < 3; i++) {
                int port = freePort();
                RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                        .setting("save \"\"").setting("appendonly no").setting("dir " + dir)
                        .setting("cluster-enabled yes").setting("cluster-config-file nodes-" + port + ".conf")
                        .setting("cluster-node-timeout 5000").build();
                server.start();
                servers.add(server);
                nodes.add(new HostAndPort("127.0.0.1", port));
            }
            List<HostAndPort> list = List.copyOf(nodes);
            for (int i = 0; i < list.size(); i++) {
                int from = SLOTS * i / list.size();
                int to = SLOTS * (i + 1) / list.size();
                try (Jedis j = new Jedis(list.get(i))) {
                    j.clusterAddSlots(IntStream.range(from, to).toArray());
                    if (i > 0) {
                        j.clusterMeet(list.getFirst().getHost(), list.getFirst().getPort());
                    }
                }
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> list.stream().allMatch(TestRedisCluster::ready));
            return new TestRedisCluster(servers, nodes, dir, RedisClients.cluster(nodes, RedisClients.plain(5_000)));
        } catch (IOException | RuntimeException e) {
            servers.forEach(TestRedisCluster::stop);
            throw e;
        }
    }

    private static boolean ready(HostAndPort node) {
        try (Jedis j = new Jedis(node)) {
            String info = j.clusterInfo();
            return info.contains("cluster_state:ok") && info.contains("cluster_slots_assigned:" + SLOTS)
                    && info.contains("cluster_known_nodes:3");
        }
    }

    /** The nodes' addresses. */
    public Set<HostAndPort> nodes() {
        return nodes;
    }

    /** Empties every primary. */
    public void flushAll() {
        nodes.forEach(n -> {
            try (Jedis j = new Jedis(n)) {
                j.flushAll();
            }
        });
    }

    /** Whether some node has this script (by SHA) in its cache: it ran there at least once. */
    public boolean ranSomewhere(String sha) {
        return nodes.stream().anyMatch(n -> {
            try (Jedis j = new Jedis(n)) {
                return j.scriptExists(sha);
            }
        });
    }

    /** A free port whose cluster bus port (port + 10000) is free too. */
    private static int freePort() throws IOException {
        while (true) {
            try (ServerSocket s = new ServerSocket(0)) {
                int port = s.getLocalPort();
                if (port + 10_000 <= 65_535) {
                    try (ServerSocket bus = new ServerSocket(port + 10_000)) {
                        return port;
                    } catch (IOException taken) {
                        // try another
                    }
                }
            }
        }
    }

    private static void stop(RedisServer server) {
        try {
            server.stop();
        } catch (IOException e) {
            // the process is gone already
        }
    }

    @Override
    public void close() throws IOException {
        redis.close();
        servers.forEach(TestRedisCluster::stop);
        try (var files = Files.list(dir)) {
            files.forEach(f -> f.toFile().delete());
        }
        Files.deleteIfExists(dir);
    }
}
