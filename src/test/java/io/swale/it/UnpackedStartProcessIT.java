package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/swale} starts from the build's unpacked copy of the jar (target/unpacked/, made by the package phase),
 * its classes on a plain class path. Unpacking gives the copy the jar's time: a copy of another time (an earlier
 * build's, or one cut short while it was written) is not used, and the jar itself starts.
 */
class UnpackedStartProcessIT {
    private static final Path HELLO = Path.of("examples", "hello.toml").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void theLauncherStartsTheBuildsUnpackedCopy() throws Exception {
        Path jar = builtJar();
        Path unpacked = jar.resolveSibling("unpacked").resolve(jar.getFileName());
        assertThat(unpacked).as("the package phase unpacks the jar (not skipped with -Dswale.unpack.skip)")
                .isRegularFile();
        assertThat(unpacked.resolveSibling("lib")).isDirectory();

        Launcher.Result result = launch(jar, "validate", HELLO.toString());
        assertThat(result.code()).as(result.output()).isZero();
        assertThat(result.output()).contains("hello: 2 nodes")
                .containsPattern("io\\.swale\\.SwaleApplication source: file:.*/unpacked/"
                        + Pattern.quote(jar.getFileName().toString()));
    }

    @Test
    void aCopyOlderThanTheJarIsNotUsed() throws Exception {
        theJarStartsWithACopyOffBy(-60_000);
    }

    @Test
    void aCopyNewerThanTheJarIsNotUsed() throws Exception {
        theJarStartsWithACopyOffBy(60_000);
    }

    private void theJarStartsWithACopyOffBy(long millis) throws Exception {
        Path jar = Files.copy(builtJar(), dir.resolve("swale.jar"));
        // not a jar at all: were it started, the command would fail
        Path other = Files.createDirectories(dir.resolve("unpacked")).resolve("swale.jar");
        Files.writeString(other, "another build's, or cut short");
        Files.setLastModifiedTime(other, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + millis));

        Launcher.Result result = launch(jar, "validate", HELLO.toString());
        assertThat(result.code()).as(result.output()).isZero();
        assertThat(result.output()).contains("hello: 2 nodes")
                .containsPattern("io\\.swale\\.SwaleApplication source: jar:nested:.*/swale\\.jar/!BOOT-INF/classes/");
    }

    private static Path builtJar() {
        String built = System.getProperty("swale.it.app.jar");
        assertThat(built).as("the built jar (run through `mvn -Pmultiprocess verify`)").isNotNull();
        return Path.of(built).toAbsolutePath();
    }

    /** With no AOT cache in the test's own folder: the start this test is about. */
    private Launcher.Result launch(Path jar, String... args) throws Exception {
        return Launcher.launch(dir, jar, "-Xlog:class+load=info", Duration.ofMinutes(5), args);
    }
}
