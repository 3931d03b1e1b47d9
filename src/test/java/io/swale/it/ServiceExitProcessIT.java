package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's exit codes as a supervisor sees them (spec §13: "0 success (including an interrupted daemon)", 2 for
 * an invalid argument): {@code java -jar} of the built jar in local mode. Was: 143 after SIGTERM, 1 for a bad
 * setting.
 */
class ServiceExitProcessIT {
    @TempDir
    Path dir;

    @Test
    void sigtermStopsTheServiceWithZero() throws Exception {
        File out = dir.resolve("service.log").toFile();
        Process service = start(out, "--swale.examples=");
        try {
            await("started").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                assertThat(service.isAlive()).as("exited:%n%s", Files.readString(out.toPath())).isTrue();
                assertThat(Files.readString(out.toPath())).contains("Started SwaleApplication");
            });

            service.destroy();

            assertThat(service.waitFor(60, TimeUnit.SECONDS)).as("stopped").isTrue();
            assertThat(service.exitValue()).as(Files.readString(out.toPath())).isZero();
        } finally {
            service.destroyForcibly();
        }
    }

    @Test
    void aBadSettingEndsTheStartWithTwoNamingIt() throws Exception {
        File out = dir.resolve("bad.log").toFile();
        Process service = start(out, "--swale.examples=", "--swale.retention=7 weeks");
        try {
            assertThat(service.waitFor(120, TimeUnit.SECONDS)).as("ended").isTrue();
            String log = Files.readString(out.toPath());
            assertThat(service.exitValue()).as(log).isEqualTo(2);
            assertThat(log).contains("swale.retention");
        } finally {
            service.destroyForcibly();
        }
    }

    private Process start(File out, String... args) throws Exception {
        String jar = System.getProperty("swale.it.app.jar");
        assertThat(jar).as("the built jar (run through `mvn -Pmultiprocess verify`)").isNotNull();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Path.of(jar).toAbsolutePath().toString(), "--server.port=0"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(out).start();
    }
}
