package io.swale.deploy;

import static io.swale.deploy.DeployEnvironments.container;
import static io.swale.deploy.DeployEnvironments.map;
import static io.swale.deploy.DeployEnvironments.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The deploy files start a working Swale: the environment that the Helm chart gives the scheduler, API and
 * pool Deployments, and that docker-compose gives its scheduler, api and worker services, each over the
 * image's ENV from the Dockerfile, starts the application in this JVM, healthy, and runs a graph.
 *
 * <p>Only the addresses change: Kafka and Redis point at an embedded broker and redis-server the test starts,
 * and the HTTP server takes a free loopback port. Every other variable is used exactly as rendered.
 */
class DeployEnvironmentIT {

    /** The variables the test replaces; each must be present in what the deploy files set. */
    private static final List<String> ADDRESSES = List.of("SPRING_KAFKA_BOOTSTRAP_SERVERS", "SPRING_DATA_REDIS_HOST",
            "SPRING_DATA_REDIS_PORT", "SERVER_PORT");

    @Test
    @Timeout(300)
    void helmChartDeploymentsRunAGraph() throws Exception {
        Path helm = DeployEnvironments.helm().orElse(null);
        assumeTrue(helm != null, "helm is not installed: scripts/check-deploy.sh installs it (CI runs it first)");
        // Default values but one: the chart's replication factor is 3, and an in-process KRaft cluster of
        // three brokers is not dependable on a 2-core machine, so the test cluster has one broker.
        List<Map<String, Object>> docs = DeployEnvironments.helmTemplate(helm, "swale", "--namespace", "swale",
                "--set", "config.kafka.replicationFactor=1");
        Map<String, String> image = DeployEnvironments.imageEnvironment();

        Map<String, Object> scheduler = object(docs, "Deployment", "swale-scheduler");
        Map<String, Object> api = object(docs, "Deployment", "swale-api");
        Map<String, Object> pool = object(docs, "Deployment", "swale-pool-default");
        Map<String, String> schedulerEnv = DeployEnvironments.podEnvironment(docs, scheduler, image);
        Map<String, String> apiEnv = DeployEnvironments.podEnvironment(docs, api, image);
        Map<String, String> poolEnv = DeployEnvironments.podEnvironment(docs, pool, image);

        assertThat(schedulerEnv).containsEntry("SWALE_ROLES", "scheduler").containsEntry("SWALE_EMBEDDED", "false");
        assertThat(apiEnv).containsEntry("SWALE_ROLES", "api");
        assertThat(poolEnv).containsEntry("SWALE_ROLES", "pool");
        assertThat(poolEnv.get("SPRING_APPLICATION_JSON")).contains("\"default\"");
        assertThat(schedulerEnv.get("SWALE_SECURITY_TOKEN")).as("token from the chart's Secret").isNotBlank();

        assertThat(schedulerEnv).containsEntry("SWALE_KAFKA_REPLICATION_FACTOR", "1");
        try (var infra = SwaleInstance.Infrastructure.start(1)) {
            runAGraph(infra, List.of(
                    new Role("scheduler", schedulerEnv, probePaths(scheduler)),
                    new Role("pool", poolEnv, probePaths(pool)),
                    new Role("api", apiEnv, probePaths(api))));
        }
    }

    @Test
    @Timeout(300)
    void dockerComposeServicesRunAGraph() throws Exception {
        Map<String, String> image = DeployEnvironments.imageEnvironment();
        assertThat(image).containsKeys("SWALE_ROLES", "SERVER_PORT");
        Map<String, String> schedulerEnv = DeployEnvironments.composeEnvironment("scheduler", image);
        Map<String, String> apiEnv = DeployEnvironments.composeEnvironment("api", image);
        Map<String, String> workerEnv = DeployEnvironments.composeEnvironment("worker", image);
        assertThat(schedulerEnv).containsEntry("SWALE_ROLES", "scheduler").containsEntry("SWALE_EMBEDDED", "false");
        assertThat(apiEnv).containsEntry("SWALE_ROLES", "api");
        assertThat(workerEnv).containsEntry("SWALE_ROLES", "pool");
        // The examples folder is mounted where SWALE_EXAMPLES points: read it from the repository instead.
        assertThat(schedulerEnv).containsEntry("SWALE_EXAMPLES", "/etc/swale/definitions");
        schedulerEnv.put("SWALE_EXAMPLES", DeployEnvironments.ROOT.resolve("examples").toString());

        try (var infra = SwaleInstance.Infrastructure.start(1)) {
            runAGraph(infra, List.of(
                    new Role("scheduler", schedulerEnv, List.of(healthcheckPath("scheduler"))),
                    new Role("worker", workerEnv, List.of(healthcheckPath("worker"))),
                    new Role("api", apiEnv, List.of(healthcheckPath("api")))));
        }
    }

    /**
     * No Docker engine here, so the image is not built; but its run stage is a layout the packaged jar must
     * produce: extract it the way the Dockerfile does and check every layer it copies and the class it runs.
     */
    @Test
    @Timeout(120)
    void packagedJarHasTheLayersTheDockerfileCopies() throws Exception {
        Path jar;
        try (var files = Files.list(DeployEnvironments.ROOT.resolve("target"))) {
            jar = files.filter(f -> f.getFileName().toString().matches("swale-.*\\.jar")).findFirst().orElse(null);
        }
        assumeTrue(jar != null, "the jar is packaged before failsafe runs; run through ./mvnw verify");
        String dockerfile = Files.readString(DeployEnvironments.ROOT.resolve("Dockerfile"));
        assertThat(dockerfile).contains("-Djarmode=tools -jar /tmp/app.jar extract --layers --launcher --destination /layers");
        List<String> layers = new ArrayList<>();
        Matcher copy = Pattern.compile("(?m)^COPY --from=build /layers/([a-z-]+)/ \\./$").matcher(dockerfile);
        while (copy.find()) {
            layers.add(copy.group(1));
        }
        assertThat(layers).containsExactly("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");
        Matcher entry = Pattern.compile("(?m)^ENTRYPOINT \\[\"java\", \"([\\w.]+)\"]$").matcher(dockerfile);
        assertThat(entry.find()).as("ENTRYPOINT runs a launcher class").isTrue();

        Path out = Files.createTempDirectory("swale-layers");
        try {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process p = new ProcessBuilder(java, "-Djarmode=tools", "-jar", jar.toString(), "extract", "--layers", "--launcher",
                    "--destination", out.resolve("layers").toString()).redirectErrorStream(true)
                    .redirectOutput(out.resolve("extract.log").toFile()).start();
            assertThat(p.waitFor()).as(Files.exists(out.resolve("extract.log")) ? Files.readString(out.resolve("extract.log")) : "").isZero();
            for (String layer : layers) {
                assertThat(out.resolve("layers").resolve(layer)).as("layer " + layer).isDirectory();
            }
            String launcher = entry.group(1).replace('.', '/') + ".class";
            assertThat(out.resolve("layers/spring-boot-loader").resolve(launcher)).exists();
            assertThat(out.resolve("layers/application/BOOT-INF/classes/io/swale/SwaleApplication.class")).exists();
            assertThat(out.resolve("layers/application/BOOT-INF/classes/application.yml")).exists();
        } finally {
            try (var walk = Files.walk(out)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private record Role(String name, Map<String, String> environment, List<String> probes) {}

    /** Starts each role (the first must be the scheduler, the last the API), checks health, runs examples/hello.toml. */
    private static void runAGraph(SwaleInstance.Infrastructure infra, List<Role> roles) throws Exception {
        List<SwaleInstance> started = new ArrayList<>();
        try {
            for (Role role : roles) {
                started.add(SwaleInstance.start(role.name(), pointedAt(infra, role.environment())));
            }
            for (int i = 0; i < roles.size(); i++) {
                SwaleInstance instance = started.get(i);
                await("health of " + instance).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .untilAsserted(() -> {
                            var health = instance.get("/actuator/health");
                            assertThat(health.statusCode()).isEqualTo(200);
                            assertThat(health.body()).contains("\"status\":\"UP\"");
                        });
                for (String probe : roles.get(i).probes()) {
                    await(probe + " of " + instance).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                            .until(() -> instance.get(probe).statusCode() == 200);
                }
            }
            SwaleInstance scheduler = started.getFirst();
            SwaleInstance api = started.getLast();

            // The API is the api role's alone; what it publishes the scheduler adopts at its next sync pass, and the
            // API starts and reads the run.
            String hello = Files.readString(DeployEnvironments.ROOT.resolve("examples/hello.toml"));
            assertThat(scheduler.post("/api/v1/definitions", "application/toml", hello).statusCode()).isEqualTo(404);
            var published = api.post("/api/v1/definitions", "application/toml", hello);
            assertThat(published.statusCode()).as(published.body()).isEqualTo(201);
            await("hello adopted and started").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> {
                        var start = api.post("/api/v1/graphs/hello/runs", "application/json",
                                "{\"partitions\":[\"none\"]}");
                        assertThat(start.statusCode()).as(start.body()).isEqualTo(200);
                        assertThat(start.body()).contains("\"none\"");
                    });

            await("hello/none complete").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> {
                        var run = api.get("/api/v1/graphs/hello/runs/none");
                        assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
                        assertThat(run.body()).doesNotContain("\"state\":\"failed\"").contains("\"state\":\"complete\"");
                    });
        } finally {
            for (int i = started.size() - 1; i >= 0; i--) {
                started.get(i).close();
            }
        }
    }

    /** The rendered environment with only the addresses replaced by the test's own. */
    private static Map<String, String> pointedAt(SwaleInstance.Infrastructure infra, Map<String, String> rendered) {
        assertThat(rendered).as("variables the deploy files must set").containsKeys(ADDRESSES.toArray(String[]::new));
        Map<String, String> env = new LinkedHashMap<>(rendered);
        env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", infra.bootstrap());
        env.put("SPRING_DATA_REDIS_HOST", "127.0.0.1");
        env.put("SPRING_DATA_REDIS_PORT", String.valueOf(infra.redisPort));
        env.put("SERVER_PORT", "0");
        env.put("SERVER_ADDRESS", "127.0.0.1");
        // a published definition is adopted within a second rather than the deploy files' sync interval
        env.put("SWALE_SCHEDULER_SYNC_INTERVAL", "1s");
        return env;
    }

    private static List<String> probePaths(Map<String, Object> deployment) {
        Map<String, Object> c = container(deployment);
        List<String> paths = new ArrayList<>();
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            Object path = map(map(c, probe), "httpGet").get("path");
            assertThat(path).as(probe + " of " + map(deployment, "metadata").get("name")).isNotNull();
            paths.add(String.valueOf(path));
        }
        assertThat(paths).contains("/actuator/health/liveness", "/actuator/health/readiness");
        return paths;
    }

    private static String healthcheckPath(String service) throws Exception {
        Matcher m = Pattern.compile("GET (\\S+) HTTP").matcher(DeployEnvironments.composeHealthcheck(service));
        assertThat(m.find()).as("the health check of " + service + " asks an HTTP path").isTrue();
        return m.group(1);
    }
}
