package io.swale.it;

import java.time.Instant;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Replaces the system clock with one the tests move. */
@TestConfiguration(proxyBeanMethods = false)
public class TestClockConfiguration {
    @Bean
    @Primary
    MutableClock testClock() {
        return new MutableClock(Instant.parse("2026-09-01T00:00:00Z"));
    }
}
