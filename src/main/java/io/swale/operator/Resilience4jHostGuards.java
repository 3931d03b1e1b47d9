package io.swale.operator;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Host guards from resilience4j registries: one circuit breaker and one rate limiter per host, named
 * {@code http:<host[:port]>}. Each takes the registry's configuration named {@code swale-http} when one is
 * configured ({@code resilience4j.circuitbreaker.configs.swale-http.*}), else the registry's default, whose breaker
 * counts no call as slow.
 */
public final class Resilience4jHostGuards implements HostGuards {
    static final String CONFIG = "swale-http";

    /** A request the operator waits for is never a failure for being long: its timeout is the user's. */
    static final Duration NEVER_SLOW = Duration.ofDays(365);

    private final CircuitBreakerRegistry breakers;
    private final RateLimiterRegistry limiters;
    private final CircuitBreakerConfig unconfigured;

    public Resilience4jHostGuards(CircuitBreakerRegistry breakers, RateLimiterRegistry limiters) {
        this.breakers = breakers;
        this.limiters = limiters;
        // resilience4j's default counts a call over 60 s as slow and opens on 100 slow calls, though they succeeded
        this.unconfigured = CircuitBreakerConfig.from(breakers.getDefaultConfig())
                .slowCallDurationThreshold(NEVER_SLOW).build();
    }

    @Override
    public Guard acquire(String host) {
        String name = "http:" + host;
        CircuitBreaker breaker = breakers.circuitBreaker(name, breakers.getConfiguration(CONFIG).orElse(unconfigured));
        RateLimiter limiter = limiters.getConfiguration(CONFIG).map(c -> limiters.rateLimiter(name, c))
                .orElseGet(() -> limiters.rateLimiter(name));
        return new Guard() {
            private boolean permitted;

            @Override
            public Optional<String> refusal() {
                if (!breaker.tryAcquirePermission()) {
                    return Optional.of("the circuit breaker of host " + host + " is " + breaker.getState()
                            .name().toLowerCase(java.util.Locale.ROOT) + " after repeated failures; not calling it");
                }
                if (!limiter.acquirePermission()) {
                    breaker.releasePermission();
                    return Optional.of("the rate limit of host " + host + " is reached");
                }
                permitted = true;
                return Optional.empty();
            }

            @Override
            public void succeeded(long nanos) {
                if (permitted) {
                    breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
                }
            }

            @Override
            public void failed(long nanos, Throwable why) {
                if (permitted) {
                    breaker.onError(nanos, TimeUnit.NANOSECONDS, why);
                }
            }

            @Override
            public void released() {
                if (permitted) {
                    breaker.releasePermission();
                }
            }
        };
    }
}
