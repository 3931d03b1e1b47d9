package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.SwaleApplication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Property-based tests of the API: random and mutated requests to one running application, each answered
 * below 500 and within 2 s. jqwik runs beside Jupiter on the JUnit Platform and does not run Spring's test
 * extension, so the application is started here, once for the class. The number of tries per property is
 * {@code jqwik.tries.default}, which the build sets from {@code -Dswale.fuzz.tries} (1000 unless given).
 */
class ApiFuzzIT {
    private static final long MAX_MILLIS = 2_000;
    private static ConfigurableApplicationContext app;
    private static int port;
    private static long heapBefore;
    private static final AtomicLong cases = new AtomicLong();
    private static final AtomicLong serverErrors = new AtomicLong();
    private static final AtomicLong slowest = new AtomicLong();
    private static volatile String slowestRequest = "";

    @BeforeContainer
    static void start() {
        app = new SpringApplicationBuilder(SwaleApplication.class).properties(
                "server.port=0", "swale.examples=", "swale.auto-create-pools=false",
                "spring.kafka.consumer.properties.max.poll.interval.ms=4000").run();
        port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
        for (String[] d : new String[][] {{"application/toml", FuzzRequests.DEFINITION}, {"application/yaml", FuzzRequests.YAML}}) {
            RawHttp.Answer a = RawHttp.send(port, RawHttp.request("POST", "/api/v1/definitions", d[0],
                    d[1].getBytes(StandardCharsets.UTF_8)), 30_000);
            assertThat(a.status()).as(a.body()).isEqualTo(201);
        }
        RawHttp.send(port, RawHttp.request("POST", "/api/v1/graphs/fuzz_g/runs", "application/json",
                "{\"partitions\":[\"none\"]}".getBytes(StandardCharsets.UTF_8)), 30_000);
        // the OpenAPI document is built on its first request (over a second): not what the 2 s bound is about
        RawHttp.send(port, RawHttp.request("GET", "/v3/api-docs", null, new byte[0]), 30_000);
        heapBefore = usedHeap();
    }

    @AfterContainer
    static void stop() throws IOException {
        long heapAfter = usedHeap();
        String report = "api fuzz: " + cases.get() + " requests, " + serverErrors.get() + " answered 5xx, slowest "
                + slowest.get() + " ms (" + slowestRequest + "), used heap after GC " + heapBefore / (1 << 20)
                + " MiB before, " + heapAfter / (1 << 20) + " MiB after (max " + Runtime.getRuntime().maxMemory() / (1 << 20)
                + " MiB)\n";
        System.out.print(report);
        Files.writeString(Path.of("target", "api-fuzz-report.txt"), report);
        if (app != null) {
            app.close();
        }
    }

    @Provide
    Arbitrary<FuzzRequests.Request> requests() {
        return FuzzRequests.requests();
    }

    @Property(shrinking = ShrinkingMode.BOUNDED)
    void everyAnswerIsBelow500AndQuick(@ForAll("requests") FuzzRequests.Request request) {
        RawHttp.Answer a = RawHttp.send(port, request.bytes(), 10_000);
        cases.incrementAndGet();
        if (a.millis() > slowest.get()) {
            slowest.set(a.millis());
            slowestRequest = request.shown().length() > 160 ? request.shown().substring(0, 160) : request.shown();
        }
        if (a.status() >= 500) {
            serverErrors.incrementAndGet();
        }
        assertThat(a.status()).as("%s -> %s", request.shown(), a.body()).isBetween(100, 499);
        assertThat(a.millis()).as(request.shown()).isLessThanOrEqualTo(MAX_MILLIS);
    }

    private static long usedHeap() {
        Runtime r = Runtime.getRuntime();
        System.gc();
        return r.totalMemory() - r.freeMemory();
    }
}
