package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/swale aot} on the built jar: the training run starts the service in local mode, asks its own health
 * once, stops by itself, and leaves the JDK's AOT cache; later launches load the service's classes from it, and a
 * jar newer than its cache is started without it, with a word that says so.
 */
class AotCacheProcessIT {
    private static final Path LAUNCHER = Path.of("bin", "swale").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void theTrainingRunLeavesACacheThatTheNextLaunchLoadsClassesFrom() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "the AOT cache of one command needs JDK 25");
        String built = System.getProperty("swale.it.app.jar");
        assertThat(built).as("the built jar (run through `mvn -Pmultiprocess verify`)").isNotNull();
        Path jar = Path.of(built);

        Result training = launch(jar, "", "aot", "--swale.examples=", "--spring.jmx.enabled=false");
        assertThat(training.code()).as(training.output()).isZero();
        assertThat(training.output()).contains("training run: started in").contains("swale aot: ")
                // the first request's classes are in the cache too: the run asked its own health once
                .contains("training run: /actuator/health answered");
        Path cache = dir.resolve("aot").resolve("swale.aot");
        assertThat(cache).isRegularFile();
        assertThat(Files.size(cache)).isPositive();

        Path hello = Path.of("examples", "hello.toml").toAbsolutePath();
        Result cached = launch(jar, "-Xlog:class+load=info", "validate", hello.toString());
        assertThat(cached.code()).as(cached.output()).isZero();
        assertThat(cached.output()).contains("io.swale.SwaleApplication source: shared objects file")
                .doesNotContain("newer than its AOT cache");

        // the cache made before the jar, as after a rebuild (the built jar itself is left as it is)
        Files.setLastModifiedTime(cache, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        Result stale = launch(jar, "-Xlog:class+load=info", "validate", hello.toString());
        assertThat(stale.code()).as(stale.output()).isZero();
        assertThat(stale.output()).contains("is newer than its AOT cache; starting without it")
                .doesNotContain("io.swale.SwaleApplication source: shared objects file");
    }

    private record Result(int code, String output) {}

    private Result launch(Path jar, String javaOpts, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("sh", LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        File out = dir.resolve("launch-" + System.nanoTime() + ".log").toFile();
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out);
        Map<String, String> env = pb.environment();
        env.put("SWALE_JAR", jar.toString());
        env.put("SWALE_AOT_DIR", dir.resolve("aot").toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("JAVA_OPTS", javaOpts);
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("bin/swale " + String.join(" ", args) + " did not end in 10 minutes:\n"
                    + Files.readString(out.toPath()));
        }
        return new Result(p.exitValue(), Files.readString(out.toPath()));
    }
}
