package io.swale.operator;

import static io.swale.operator.TestAttempts.attempt;
import static io.swale.operator.TestAttempts.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The http operator's circuit breaker and rate limiter per target host. */
class HostGuardsTest {
    private HttpServer server;
    private final AtomicInteger hits = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/down", ex -> {
            hits.incrementAndGet();
            ex.sendResponseHeaders(503, -1);
            ex.close();
        });
        server.createContext("/up", ex -> {
            hits.incrementAndGet();
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Test
    void aHostThatKeepsFailingIsNotCalledWhileItsCircuitIsOpen() {
        CircuitBreakerRegistry breakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .slidingWindowSize(2).minimumNumberOfCalls(2).failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofMinutes(1)).build());
        HttpOperator http = new HttpOperator(new Resilience4jHostGuards(breakers, RateLimiterRegistry.ofDefaults()));

        for (int i = 0; i < 2; i++) {
            assertThat(http.execute(attempt(json("{\"url\": \"" + url("/down") + "\"}")).build()))
                    .isInstanceOf(OperatorResult.TransientError.class);
        }
        OperatorResult refused = http.execute(attempt(json("{\"url\": \"" + url("/up") + "\"}")).build());

        assertThat(refused).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(((OperatorResult.TransientError) refused).message()).contains("GET " + url("/up"))
                .contains("circuit breaker of host 127.0.0.1:" + server.getAddress().getPort()).contains("open");
        assertThat(hits).hasValue(2);
        assertThat(breakers.getAllCircuitBreakers()).extracting(cb -> cb.getName())
                .containsExactly("http:127.0.0.1:" + server.getAddress().getPort());
    }

    @Test
    void aHostOverItsRateLimitIsATransientError() {
        RateLimiterRegistry limiters = RateLimiterRegistry.of(RateLimiterConfig.custom().limitForPeriod(1)
                .limitRefreshPeriod(Duration.ofMinutes(1)).timeoutDuration(Duration.ZERO).build());
        HttpOperator http = new HttpOperator(new Resilience4jHostGuards(CircuitBreakerRegistry.ofDefaults(), limiters));

        assertThat(http.execute(attempt(json("{\"url\": \"" + url("/up") + "\"}")).build()))
                .isInstanceOf(OperatorResult.Succeeded.class);
        OperatorResult limited = http.execute(attempt(json("{\"url\": \"" + url("/up") + "\"}")).build());

        assertThat(limited).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(((OperatorResult.TransientError) limited).message()).contains("rate limit");
        assertThat(hits).hasValue(1);
    }

    /** Was: resilience4j's default counted each as slow (over 60 s) and opened after 100, though all succeeded. */
    @Test
    void longRequestsThatSucceedNeverOpenTheCircuitUnlessConfiguredTo() {
        Resilience4jHostGuards guards = new Resilience4jHostGuards(CircuitBreakerRegistry.ofDefaults(),
                RateLimiterRegistry.ofDefaults());
        for (int i = 0; i < 150; i++) {
            HostGuards.Guard guard = guards.acquire("slow.example:443");
            assertThat(guard.refusal()).as("call %d", i).isEmpty();
            guard.succeeded(Duration.ofSeconds(61).toNanos());
        }
    }
}
