package io.swale.it;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import redis.clients.jedis.Jedis;
import redis.embedded.core.ExecutableProvider;

/**
 * A Sentinel-managed Redis of real processes (the redis-server embedded-redis ships): a primary, one replica and
 * three sentinels (quorum 2) that declare the primary down after 1 s and fail over within a few seconds.
 * Nothing persists: a failover keeps what the replica had received.
 */
final class SentinelRedis implements AutoCloseable {
    static final String MASTER = "swalemaster";

    final int primaryPort = ListenPorts.free();
    final int replicaPort = ListenPorts.free();
    final List<Integer> sentinelPorts = List.of(ListenPorts.free(), ListenPorts.free(),
            ListenPorts.free());
    private final List<Process> processes = new ArrayList<>();
    private final Path dir;
    private Process primary;

    private SentinelRedis(Path dir) {
        this.dir = dir;
    }

    static SentinelRedis start(Path dir) throws IOException {
        SentinelRedis r = new SentinelRedis(dir);
        try {
            r.startAll();
            return r;
        } catch (IOException | RuntimeException e) {
            r.close();
            throw e;
        }
    }

    private void startAll() throws IOException {
        String binary = binary().getAbsolutePath();
        primary = spawn("primary", List.of(binary, "--port", "" + primaryPort, "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no"));
        spawn("replica", List.of(binary, "--port", "" + replicaPort, "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--replicaof", "127.0.0.1", "" + primaryPort));
        await("replica in sync").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> info(replicaPort, "replication").contains("master_link_status:up"));
        for (int i = 0; i < sentinelPorts.size(); i++) {
            int port = sentinelPorts.get(i);
            Path conf = dir.resolve("sentinel-" + i + ".conf");
            // sentinel rewrites its configuration file: each needs its own, writable
            Files.writeString(conf, String.join("\n",
                    "port " + port,
                    "bind 127.0.0.1",
                    "protected-mode no",
                    "dir " + dir.toAbsolutePath(),
                    "sentinel monitor " + MASTER + " 127.0.0.1 " + primaryPort + " 2",
                    "sentinel down-after-milliseconds " + MASTER + " 1000",
                    "sentinel failover-timeout " + MASTER + " 3000",
                    "sentinel parallel-syncs " + MASTER + " 1", ""));
            spawn("sentinel-" + i, List.of(binary, conf.toAbsolutePath().toString(), "--sentinel"));
        }
        try {
            // hellos every 2 s and the primary's INFO every 10 s: on a loaded machine this took over 30 s once
            await("sentinels see the replica and each other").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200)).until(() -> sentinelPorts.stream().allMatch(p -> {
                        String s = info(p, "sentinel");
                        return s.contains("status=ok") && s.contains("slaves=1") && s.contains("sentinels=3");
                    }));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            StringBuilder seen = new StringBuilder(e.getMessage());
            for (int i = 0; i < sentinelPorts.size(); i++) {
                int port = sentinelPorts.get(i);
                seen.append("\nsentinel-").append(i).append(" (port ").append(port).append("): ");
                try {
                    seen.append(info(port, "sentinel").lines().filter(l -> l.startsWith("master0")).findFirst()
                            .orElse("no master line"));
                } catch (RuntimeException unreachable) {
                    seen.append("unreachable: ").append(unreachable);
                }
                Path log = dir.resolve("sentinel-" + i + ".log");
                if (Files.exists(log)) {
                    List<String> lines = Files.readAllLines(log);
                    seen.append("\n  log tail: ").append(String.join("\n  ",
                            lines.subList(Math.max(0, lines.size() - 5), lines.size())));
                }
            }
            throw new IllegalStateException(seen.toString(), e);
        }
    }

    /** The binary embedded-redis ships for this platform (it supports {@code --sentinel}). */
    static File binary() throws IOException {
        return ExecutableProvider.newJarResourceProvider().get();
    }

    private Process spawn(String name, List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
        processes.add(p);
        return p;
    }

    /** {@code spring.data.redis.sentinel.nodes}. */
    String sentinelNodes() {
        return sentinelPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
    }

    /** {@code kill -9} of the primary; the sentinels promote the replica. */
    void killPrimary() {
        primary.destroyForcibly();
        await().atMost(Duration.ofSeconds(10)).until(() -> !primary.isAlive());
    }

    /** The port the sentinels now name as primary. */
    int currentPrimaryPort() {
        for (int port : sentinelPorts) {
            try (Jedis j = new Jedis("127.0.0.1", port, 1000)) {
                return Integer.parseInt(j.sentinelGetMasterAddrByName(MASTER).get(1));
            } catch (RuntimeException e) {
                // ask the next
            }
        }
        throw new IllegalStateException("no sentinel answers");
    }

    static String info(int port, String section) {
        try (Jedis j = new Jedis("127.0.0.1", port, 1000)) {
            return j.info(section);
        } catch (RuntimeException e) {
            return "";
        }
    }

    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
        for (Process p : processes) {
            try {
                p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "primary 127.0.0.1:" + primaryPort + ", replica :" + replicaPort + ", sentinels " + sentinelNodes();
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e);
    }
}
