package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/swale aot} on the built jar: the training run starts the service in local mode, asks its own health
 * once, stops by itself, and leaves the JDK's AOT cache; later launches load the service's classes from it, and a
 * jar newer than its cache is started without it, with a word that says so.
 */
class AotCacheProcessIT {
    @TempDir
    Path dir;

    @Test
    void theTrainingRunLeavesACacheThatTheNextLaunchLoadsClassesFrom() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "the AOT cache of one command needs JDK 25");
        String built = System.getProperty("swale.it.app.jar");
        assertThat(built).as("the built jar (run through `mvn -Pmultiprocess verify`)").isNotNull();
        Path jar = Path.of(built);

        Launcher.Result training = launch(jar, "", "aot", "--swale.examples=", "--spring.jmx.enabled=false");
        assertThat(training.code()).as(training.output()).isZero();
        assertThat(training.output()).contains("training run: started in").contains("swale aot: ")
                // the first request's classes are in the cache too: the run asked its own health once
                .contains("training run: /actuator/health answered");
        Path cache = dir.resolve("aot").resolve("swale.aot");
        assertThat(cache).isRegularFile();
        assertThat(Files.size(cache)).isPositive();

        Path hello = Path.of("examples", "hello.toml").toAbsolutePath();
        Launcher.Result cached = launch(jar, "-Xlog:class+load=info", "validate", hello.toString());
        assertThat(cached.code()).as(cached.output()).isZero();
        assertThat(cached.output()).contains("io.swale.SwaleApplication source: shared objects file")
                .doesNotContain("newer than its AOT cache");

        // a cache made with another JDK: that JDK's cache, or its option, would fail every start
        Path madeWith = dir.resolve("aot").resolve("java");
        String java = Files.readString(madeWith);
        Files.writeString(madeWith, "/opt/another-jdk/bin/java\n");
        Launcher.Result otherJdk = launch(jar, "-Xlog:class+load=info", "validate", hello.toString());
        assertThat(otherJdk.code()).as(otherJdk.output()).isZero();
        assertThat(otherJdk.output()).contains("the AOT cache was not made with")
                .doesNotContain("io.swale.SwaleApplication source: shared objects file");
        Files.writeString(madeWith, java);

        // the cache made before the jar, as after a rebuild (the built jar itself is left as it is)
        Files.setLastModifiedTime(cache, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        Launcher.Result stale = launch(jar, "-Xlog:class+load=info", "validate", hello.toString());
        assertThat(stale.code()).as(stale.output()).isZero();
        assertThat(stale.output()).contains("is newer than its AOT cache; starting without it")
                .doesNotContain("io.swale.SwaleApplication source: shared objects file");
    }

    private Launcher.Result launch(Path jar, String javaOpts, String... args) throws Exception {
        return Launcher.launch(dir, jar, javaOpts, Duration.ofMinutes(10), args);
    }
}
