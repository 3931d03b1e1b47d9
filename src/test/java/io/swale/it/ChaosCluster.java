package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.store.redis.TestRedisCluster;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import redis.clients.jedis.Jedis;
import redis.embedded.core.ExecutableProvider;

/**
 * The processes of the chaos test, each its own OS process so that each can be killed: a one-node KRaft Kafka
 * broker JVM (kafka.Kafka from the kafka_2.13 jars on the test class path), redis-server with an append-only
 * file (the binary embedded-redis ships), two scheduler+api JVMs and three pool JVMs of the built jar. Kafka and
 * Redis come back on the same ports and data directories. Every child is killed at the end, and by a shutdown
 * hook should the test JVM itself be stopped. With {@link RedisKind#CLUSTER} the members use a 3-primary Redis
 * Cluster ({@link TestRedisCluster}) instead of the one redis-server, which is then not started.
 */
final class ChaosCluster implements AutoCloseable {
    /** Which Redis the members share. */
    enum RedisKind {
        /** One redis-server process with an append-only file, that a test can kill and start again. */
        STANDALONE,
        /** A 3-primary Redis Cluster; the members get only its node list. */
        CLUSTER
    }

    /** A 2-core machine starting five Spring Boot JVMs and a broker at once can take minutes. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(300);
    /** A member's readiness: its log says Spring Boot has started. */
    private static final String STARTED = "Started SwaleApplication";

    final Path dir;
    /** The broker's ports; chosen again only if its first start fails (see {@link #awaitFirstKafka()}). */
    private volatile int kafkaPort = ListenPorts.free();
    private volatile int controllerPort = ListenPorts.free();
    final int redisPort = ListenPorts.free();
    final ChaosProcess kafka;
    /** The standalone redis-server; started only with {@link RedisKind#STANDALONE}. */
    final ChaosProcess redis;
    final RedisKind redisKind;
    /** The Redis Cluster, once started ({@link RedisKind#CLUSTER} only). */
    private volatile Optional<TestRedisCluster> redisCluster = Optional.empty();
    final Map<String, ChaosProcess> schedulers = new LinkedHashMap<>();
    final Map<String, ChaosProcess> workers = new LinkedHashMap<>();
    final Map<String, Integer> apiPorts = new LinkedHashMap<>();
    private final List<ChaosProcess> all = new ArrayList<>();
    private final Thread hook = new Thread(this::destroyAll, "chaos-cleanup");

    ChaosCluster(Path dir, String appJar, List<String> memberArgs) {
        this(dir, appJar, memberArgs, List.of("s1", "s2"), List.of("w1", "w2", "w3"));
    }

    /** With the scheduler+api and pool members named (and counted) by the caller. */
    ChaosCluster(Path dir, String appJar, List<String> memberArgs, List<String> schedulerNames,
            List<String> workerNames) {
        this(dir, appJar, memberArgs, schedulerNames, workerNames, RedisKind.STANDALONE);
    }

    /** With the members named by the caller, on the Redis of the given kind. */
    ChaosCluster(Path dir, String appJar, List<String> memberArgs, List<String> schedulerNames,
            List<String> workerNames, RedisKind redisKind) {
        this.dir = dir;
        this.redisKind = redisKind;
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            deleteRecursively(dir);
            Files.createDirectories(dir.resolve("redis"));
            kafka = add(kafkaBroker());
            redis = redisServer();
            if (redisKind == RedisKind.STANDALONE) {
                add(redis);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String s : schedulerNames) {
            int port = ListenPorts.free();
            apiPorts.put(s, port);
            schedulers.put(s, add(member(s, appJar, memberArgs, List.of("--swale.roles=scheduler,api",
                    "--server.port=" + port, "--server.address=127.0.0.1"))));
        }
        for (String w : workerNames) {
            workers.put(w, add(member(w, appJar, memberArgs, List.of("--swale.roles=pool",
                    "--spring.main.web-application-type=none", "--swale.default-slots=4"))));
        }
    }

    String bootstrap() {
        return "127.0.0.1:" + kafkaPort;
    }

    Map<String, Object> kafkaClientConfig() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        c.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
        c.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
        return c;
    }

    /** Starts Kafka and Redis, then every member, and waits until all are ready. */
    void startAll() {
        kafka.start();
        switch (redisKind) {
            case STANDALONE -> {
                redis.start();
                awaitRedis();
            }
            case CLUSTER -> startRedisCluster();
        }
        awaitFirstKafka();
        schedulers.values().forEach(ChaosProcess::start);
        workers.values().forEach(ChaosProcess::start);
        schedulers.values().forEach(this::awaitReady);
        workers.values().forEach(this::awaitReady);
    }

    /** Waits until {@code p} (just started) serves: Kafka answers an admin call, Redis a PING, a member has started. */
    void awaitReady(ChaosProcess p) {
        if (p == kafka) {
            awaitKafka();
        } else if (p == redis) {
            awaitRedis();
        } else {
            awaitStarted(p);
        }
    }

    private void startRedisCluster() {
        try {
            redisCluster = Optional.of(TestRedisCluster.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the Redis Cluster", e);
        }
    }

    /** The Redis Cluster the members use ({@link RedisKind#CLUSTER}, after {@link #startAll()}). */
    TestRedisCluster redisCluster() {
        return redisCluster.orElseThrow(() -> new IllegalStateException("no Redis Cluster: kind " + redisKind
                + ", or not started yet"));
    }

    /**
     * The broker is not under test, and its first start is the one thing here that another program on the host can
     * spoil (a port taken between its choice and the bind). If that start fails, it gets one more on fresh ports and
     * a fresh log directory, and what the first one said goes to the test's output. A restart later in a test keeps
     * its ports, as a restarted broker must.
     */
    private void awaitFirstKafka() {
        try {
            awaitKafka();
        } catch (ChaosProcess.Exited e) {
            System.err.println("the Kafka broker's first start failed; once more on fresh ports: " + e.getMessage());
            kafkaPort = ListenPorts.free();
            controllerPort = ListenPorts.free();
            try {
                prepareBroker(brokerJava());
            } catch (IOException io) {
                throw new UncheckedIOException(io);
            }
            kafka.start();
            awaitKafka();
        }
    }

    private void awaitKafka() {
        await("Kafka broker " + kafka.member()).atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250))
                .ignoreExceptionsMatching(ChaosCluster::notAnExit).until(() -> {
                    alive(kafka);
                    try (AdminClient admin = AdminClient.create(kafkaClientConfig())) {
                        return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
                    }
                });
    }

    private void awaitRedis() {
        await("redis-server " + redis.member()).atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsMatching(ChaosCluster::notAnExit).until(() -> {
                    alive(redis);
                    return redisAnswers();
                });
    }

    /** Whether redis-server answers a PING (it answers an error while its append-only file loads). */
    boolean redisAnswers() {
        try (Jedis j = new Jedis("127.0.0.1", redisPort, 2000)) {
            return "PONG".equals(j.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void awaitStarted(ChaosProcess p) {
        Path log = p.log();
        await(p.member() + " started (" + log + ")").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    alive(p);
                    return Files.exists(log) && Files.readString(log).contains(STARTED);
                });
        Integer port = apiPorts.get(p.name());
        if (port != null) {
            HttpClient http = HttpClient.newHttpClient();
            await(p.member() + " ready").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptionsMatching(ChaosCluster::notAnExit).until(() -> {
                        alive(p);
                        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                                + "/actuator/health/readiness")).timeout(Duration.ofSeconds(3)).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                    });
        }
    }

    private static void alive(ChaosProcess p) {
        p.exited().ifPresent(code -> {
            throw new ChaosProcess.Exited(p.member(), code, p.log());
        });
    }

    /** A child that died while it was awaited ends the wait at once: the rest of the timeout cannot revive it. */
    private static boolean notAnExit(Throwable e) {
        return !(e instanceof ChaosProcess.Exited);
    }

    private ChaosProcess kafkaBroker() throws IOException {
        List<String> java = brokerJava();
        prepareBroker(java);
        return new ChaosProcess("kafka", dir, n -> concat(java, List.of("kafka.Kafka", brokerConfig().toString())),
                Map.of());
    }

    private Path brokerConfig() {
        return dir.resolve("server.properties");
    }

    /** Writes the broker's configuration for the current ports and formats an empty log directory. */
    private void prepareBroker(List<String> java) throws IOException {
        Path data = dir.resolve("kafka-data");
        deleteRecursively(data);
        Path config = brokerConfig();
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + kafkaPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + kafkaPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", data.toAbsolutePath().toString());
        p.put("num.partitions", "4");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "4");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("auto.create.topics.enable", "true");
        try (var out = Files.newBufferedWriter(config)) {
            p.store(out, "chaos test broker");
        }
        format(java, config);
    }

    /** The broker JVM's command line up to its main class. */
    private List<String> brokerJava() throws IOException {
        String classPath = System.getProperty("java.class.path");
        if (!classPath.contains("kafka_2.13")) {
            throw new IllegalStateException("the kafka_2.13 jars are not on the test class path: " + classPath);
        }
        // the whole class path in an argument file: the command line stays short
        Path classPathArgs = dir.resolve("kafka-classpath.args");
        Files.writeString(classPathArgs, "-cp \"" + classPath.replace("\\", "\\\\") + "\"\n");
        Path logback = dir.resolve("kafka-logback.xml");
        Files.writeString(logback, """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{yyyy-MM-dd'T'HH:mm:ss.SSS'Z',UTC} %-5level %logger{36} - %msg%n</pattern></encoder>
                  </appender>
                  <!-- joins, leaves, failed members and rebalances: what a pause after a fault is read from -->
                  <logger name="org.apache.kafka.coordinator.group" level="INFO"/>
                  <root level="WARN"><appender-ref ref="OUT"/></root>
                </configuration>
                """);
        return List.of(java(), "-Xmx512m", "-XX:+UseSerialGC", "@" + classPathArgs,
                "-Dlogback.configurationFile=" + logback.toAbsolutePath(), "-Dlog4j2.level=WARN");
    }

    /** {@code kafka-storage format}: a KRaft node's log directory needs a cluster id before its first start. */
    private void format(List<String> java, Path config) throws IOException {
        Path log = dir.resolve("kafka-format.log");
        Process p = new ProcessBuilder(concat(java, List.of("kafka.tools.StorageTool", "format", "-t",
                Uuid.randomUuid().toString(), "-c", config.toString()))).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("kafka-storage format failed; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private ChaosProcess redisServer() throws IOException {
        File binary = ExecutableProvider.newJarResourceProvider().get();
        Path data = dir.resolve("redis").toAbsolutePath();
        // appendfsync everysec (the default): a write Redis has answered is in the file, so it survives a kill -9
        return new ChaosProcess("redis", dir, n -> List.of(binary.getAbsolutePath(), "--port", Integer.toString(redisPort),
                "--bind", "127.0.0.1", "--dir", data.toString(), "--appendonly", "yes", "--save", ""), Map.of());
    }

    private ChaosProcess member(String name, String jar, List<String> memberArgs, List<String> roleArgs) {
        Map<String, String> env = Map.of("HOSTNAME", name, "POD_NAME", name);
        return new ChaosProcess(name, dir, n -> {
            String self = name + "-i" + n;
            List<String> cmd = new ArrayList<>(List.of(java(), "-Xmx320m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError", "-jar", jar,
                    "--spring.kafka.bootstrap-servers=" + bootstrap(), "--swale.embedded=false", "--swale.examples=",
                    "--swale.security.open=true", "--swale.worker.id=" + self, "--spring.application.name=" + name,
                    "--spring.quartz.scheduler-name=quartz-" + name,
                    // joins, assignments and revocations, to read a slow hand-over afterwards
                    "--logging.level.org.apache.kafka.clients.consumer.internals=INFO"));
            cmd.addAll(redisMemberArgs());
            cmd.addAll(roleArgs);
            cmd.addAll(memberArgs);
            return cmd;
        }, env);
    }

    /** How every member reaches Redis: host and port of the redis-server, or the Cluster's node list only. */
    List<String> redisMemberArgs() {
        return switch (redisKind) {
            case STANDALONE -> List.of("--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redisPort);
            case CLUSTER -> List.of("--spring.data.redis.cluster.nodes=" + redisCluster().nodes().stream()
                    .map(n -> n.getHost() + ":" + n.getPort()).collect(java.util.stream.Collectors.joining(",")));
        };
    }

    private ChaosProcess add(ChaosProcess p) {
        all.add(p);
        return p;
    }

    private void destroyAll() {
        // members first: they would otherwise log connection errors against a dead broker
        List<ChaosProcess> order = new ArrayList<>(all);
        java.util.Collections.reverse(order);
        order.forEach(ChaosProcess::destroy);
        redisCluster.ifPresent(c -> {
            try {
                c.close();
            } catch (IOException | RuntimeException e) {
                // the test is over: what is left of the cluster's files stays in the temp directory
            }
        });
        redisCluster = Optional.empty();
    }

    @Override
    public void close() {
        destroyAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs anyway
        }
    }

    /** The service jar the build made: failsafe names it (swale.it.app.jar) in the multiprocess and chaos profiles. */
    static String builtJar() {
        String jar = System.getProperty("swale.it.app.jar");
        assertThat(jar).as("the built jar (run through `mvn -Pmultiprocess verify` or `-Pchaos verify`)").isNotNull();
        assertThat(Path.of(jar)).isRegularFile();
        return jar;
    }

    /** No Spring Boot in the test JVM sets logging up: logback's default would print every Kafka client's DEBUG line. */
    static void quietTestLogs() {
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
