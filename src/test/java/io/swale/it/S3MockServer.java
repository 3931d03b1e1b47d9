package io.swale.it;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Adobe's S3Mock (an S3-compatible server) as its own JVM, from the exec jar the build copies to
 * target/it-servers. It runs its own Spring Boot; on our class path its application.properties would leak
 * into the application under test, so it is not started in-process.
 */
final class S3MockServer implements AutoCloseable {
    static final String BUCKET = "swale-it";

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();

    private S3MockServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static S3MockServer start() {
        String jar = System.getProperty("swale.it.s3mock.jar", "target/it-servers/s3mock-exec.jar");
        if (!new File(jar).isFile()) {
            throw new IllegalStateException("S3Mock jar missing at " + jar + " (run through `mvn verify`)");
        }
        int port = freePort();
        try {
            Path root = Files.createTempDirectory("s3mock");
            Path log = Path.of("target", "s3mock.log");
            Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", jar,
                    "--com.adobe.testing.s3mock.httpPort=" + port, "--server.port=" + freePort(),
                    "--server.address=127.0.0.1",
                    "--com.adobe.testing.s3mock.store.initial-buckets=" + BUCKET,
                    "--com.adobe.testing.s3mock.store.root=" + root))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            S3MockServer server = new S3MockServer(p, port);
            server.awaitReady();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** Puts an object with a plain path-style PUT (S3Mock does not check signatures). */
    void put(String key, byte[] body) throws Exception {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + BUCKET + "/" + key))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("PUT " + key + " answered " + r.statusCode());
        }
    }

    private void awaitReady() {
        try {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .until(this::answers);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            close();
            throw new IllegalStateException("S3Mock did not start within 90 s; see target/s3mock.log", e);
        }
    }

    private boolean answers() throws InterruptedException {
        if (!process.isAlive()) {
            throw new IllegalStateException("S3Mock exited with " + process.exitValue() + "; see target/s3mock.log");
        }
        try {
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + BUCKET + "/none"))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 404 || r.statusCode() == 200;
        } catch (IOException e) {
            return false; // not listening yet
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
