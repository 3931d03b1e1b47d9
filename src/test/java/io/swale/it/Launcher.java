package io.swale.it;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** {@code bin/swale} run as a user runs it, on a given jar, for the process tests of the launcher. */
final class Launcher {
    private static final Path SCRIPT = Path.of("bin", "swale").toAbsolutePath();

    record Result(int code, String output) {}

    private Launcher() {
    }

    /**
     * Runs {@code bin/swale args…} with {@code SWALE_JAR=jar}, {@code SWALE_AOT_DIR=dir/aot}, this JVM's JDK and
     * {@code JAVA_OPTS=javaOpts}; its output goes to a file in {@code dir}.
     */
    static Result launch(Path dir, Path jar, String javaOpts, Duration timeout, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("sh", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        File out = dir.resolve("launch-" + System.nanoTime() + ".log").toFile();
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out);
        Map<String, String> env = pb.environment();
        env.put("SWALE_JAR", jar.toString());
        env.put("SWALE_AOT_DIR", dir.resolve("aot").toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("JAVA_OPTS", javaOpts);
        Process p = pb.start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bin/swale " + String.join(" ", args) + " did not end in " + timeout + ":\n"
                    + Files.readString(out.toPath()));
        }
        return new Result(p.exitValue(), Files.readString(out.toPath()));
    }
}
