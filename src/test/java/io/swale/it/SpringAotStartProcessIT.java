package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar} of the built jar in local mode starts from the bean definitions of the build's AOT step
 * (io.swale.local.SpringAotStart): with the beans of a start without them, running a graph; and a setting that a
 * condition reads, given differently, makes the start go without them, with the beans that setting asks for.
 */
class SpringAotStartProcessIT {
    private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");
    private static final Pattern CREATED = Pattern.compile("Creating shared instance of singleton bean '([^']+)'");
    /** Spring's own processors of annotated classes, which a start from generated definitions has no use for. */
    private static final Pattern ANNOTATION_PROCESSING = Pattern.compile(
            "org\\.springframework\\.(context\\.annotation|boot\\.autoconfigure)\\.internal.*");
    private static final String BEAN_LOG =
            "--logging.level.org.springframework.beans.factory.support.DefaultListableBeanFactory=DEBUG";

    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void theAotStartHasTheRegularStartsBeansAndRunsAGraph() throws Exception {
        Set<String> aotBeans;
        try (Service aot = Service.start(dir, "aot", BEAN_LOG)) {
            assertThat(aot.log()).contains("Starting AOT-processed SwaleApplication");
            aotBeans = aot.createdBeans();
            aot.gateComesFirst();
            // local mode publishes the examples at its start and adopts them at its first sync pass
            await("hello adopted and started").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(post(aot, "/api/v1/graphs/hello/runs",
                            "{\"partitions\":[\"none\"]}").statusCode()).isEqualTo(200));
            await("hello/none complete").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> {
                        HttpResponse<String> run = get(aot, "/api/v1/graphs/hello/runs/none");
                        assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
                        assertThat(run.body()).doesNotContain("\"state\":\"failed\"")
                                .contains("\"state\":\"complete\"");
                    });
        }
        Set<String> regularBeans;
        try (Service regular = Service.start(dir, "regular", BEAN_LOG, "--swale.spring-aot=false")) {
            assertThat(regular.log()).doesNotContain("AOT-processed");
            regularBeans = regular.createdBeans();
            regular.gateComesFirst();
        }
        assertThat(aotBeans).hasSizeGreaterThan(400).isEqualTo(regularBeans);
    }

    @Test
    void aSettingAConditionReadsTurnsTheBuildsDefinitionsOff() throws Exception {
        try (Service service = Service.start(dir, "beans-exposed",
                "--management.endpoints.web.exposure.include=health,beans")) {
            assertThat(service.log()).doesNotContain("AOT-processed")
                    .contains("starting without the build's AOT bean definitions")
                    .contains("management.endpoints.web.exposure.include set differently");
            HttpResponse<String> beans = get(service, "/actuator/beans");
            assertThat(beans.statusCode()).as(beans.body()).isEqualTo(200);
        }
    }

    private HttpResponse<String> get(Service service, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(service.uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(Service service, String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(service.uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The built jar started with {@code java -jar} in local mode, on a free port, its output in a file. */
    private record Service(Process process, Path output, int port) implements AutoCloseable {
        static Service start(Path dir, String name, String... args) throws Exception {
            String built = System.getProperty("swale.it.app.jar");
            assertThat(built).as("the built jar (run through `mvn -Pmultiprocess verify`)").isNotNull();
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> cmd = new ArrayList<>(List.of(java,
                    "-jar", Path.of(built).toAbsolutePath().toString(), "--server.port=0",
                    "--swale.examples=" + Path.of("examples").toAbsolutePath()));
            cmd.addAll(List.of(args));
            File out = dir.resolve(name + ".log").toFile();
            Process process = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out).start();
            Service starting = new Service(process, out.toPath(), 0);
            int[] port = {0};
            try {
                await(name + " started").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                        .untilAsserted(() -> {
                            assertThat(process.isAlive()).as("%s exited:%n%s", name, starting.log()).isTrue();
                            Matcher m = PORT.matcher(starting.log());
                            assertThat(m.find()).as(name + " has its HTTP port").isTrue();
                            assertThat(starting.log()).contains("Started SwaleApplication");
                            port[0] = Integer.parseInt(m.group(1));
                        });
            } catch (AssertionError | RuntimeException e) {
                starting.close();
                throw e;
            }
            return new Service(process, out.toPath(), port[0]);
        }

        String log() throws Exception {
            return Files.readString(output);
        }

        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + port + path);
        }

        Set<String> createdBeans() throws Exception {
            Set<String> names = new TreeSet<>();
            Matcher m = CREATED.matcher(log());
            while (m.find()) {
                if (!ANNOTATION_PROCESSING.matcher(m.group(1)).matches()) {
                    names.add(m.group(1));
                }
            }
            return names;
        }

        /**
         * The embedded broker's gate is built before the Kafka admin, so that it waits for the broker before the
         * admin's after-singletons step (topic creation) asks it anything.
         */
        void gateComesFirst() throws Exception {
            List<String> order = new ArrayList<>();
            Matcher m = CREATED.matcher(log());
            while (m.find()) {
                order.add(m.group(1));
            }
            assertThat(order).contains("kafkaAdmin");
            // singletons are built, and their after-singletons steps run, in the order of their definitions
            assertThat(order.indexOf("swaleEmbeddedKafkaGate")).as(String.join(", ", order))
                    .isNotNegative().isLessThan(order.indexOf("kafkaAdmin"));
        }

        @Override
        public void close() throws Exception {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
