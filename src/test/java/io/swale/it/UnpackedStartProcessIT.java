package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

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
 * {@code bin/swale} starts from the build's unpacked copy of the jar (target/unpacked/, made by the package phase),
 * its classes on a plain class path; a copy older than the jar is an earlier build's, and the jar itself starts.
 */
class UnpackedStartProcessIT {
    private static final Path LAUNCHER = Path.of("bin", "swale").toAbsolutePath();
    private static final Path HELLO = Path.of("examples", "hello.toml").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void theLauncherStartsTheBuildsUnpackedCopy() throws Exception {
        Path jar = builtJar();
        Path unpacked = jar.resolveSibling("unpacked").resolve(jar.getFileName());
        assertThat(unpacked).as("the package phase unpacks the jar").isRegularFile();
        assertThat(unpacked.resolveSibling("lib")).isDirectory();

        Result result = launch(jar, "validate", HELLO.toString());
        assertThat(result.code()).as(result.output()).isZero();
        assertThat(result.output()).contains("hello: 2 nodes")
                .contains("io.swale.SwaleApplication source: file:" + unpacked);
    }

    @Test
    void aCopyOlderThanTheJarIsNotUsed() throws Exception {
        Path jar = Files.copy(builtJar(), dir.resolve("swale.jar"));
        // not a jar at all: were it started, the command would fail
        Path stale = Files.createDirectories(dir.resolve("unpacked")).resolve("swale.jar");
        Files.writeString(stale, "an earlier build");
        Files.setLastModifiedTime(stale, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));

        Result result = launch(jar, "validate", HELLO.toString());
        assertThat(result.code()).as(result.output()).isZero();
        assertThat(result.output()).contains("hello: 2 nodes")
                .contains("io.swale.SwaleApplication source: jar:nested:" + jar);
    }

    private static Path builtJar() {
        String built = System.getProperty("swale.it.app.jar");
        assertThat(built).as("the built jar (run through `mvn -Pmultiprocess verify`)").isNotNull();
        return Path.of(built).toAbsolutePath();
    }

    private record Result(int code, String output) {}

    private Result launch(Path jar, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("sh", LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        File out = dir.resolve("launch-" + System.nanoTime() + ".log").toFile();
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out);
        Map<String, String> env = pb.environment();
        env.put("SWALE_JAR", jar.toString());
        // no AOT cache there: the start this test is about
        env.put("SWALE_AOT_DIR", dir.resolve("aot").toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("JAVA_OPTS", "-Xlog:class+load=info");
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("bin/swale " + String.join(" ", args) + " did not end in 5 minutes:\n"
                    + Files.readString(out.toPath()));
        }
        return new Result(p.exitValue(), Files.readString(out.toPath()));
    }
}
