package io.swale;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * The auto-configurations {@link SwaleApplication} excludes to start faster (issue 18): each still exists under
 * its name (an exclusion of a class that is gone does nothing, silently), none of them runs, and what Swale
 * does use of the same starters (resilience4j's circuit breaker and rate limiter registries) is still there.
 */
class ExcludedAutoConfigurationsIT {
    private static final List<String> EXCLUDED =
            Arrays.asList(SwaleApplication.class.getAnnotation(SpringBootApplication.class).excludeName());

    @Test
    void everyExcludedNameIsAClassOnTheClassPath() {
        assertThat(EXCLUDED).isNotEmpty().allSatisfy(name -> assertThat(ClassUtils.isPresent(name, null))
                .as("%s is on the class path", name).isTrue());
    }

    @Test
    void theExcludedDoNotRunAndTheRegistriesSwaleUsesDo() {
        try (ConfigurableApplicationContext app = SpringApplication.run(SwaleApplication.class,
                "--server.port=0", "--swale.examples=", "--spring.jmx.enabled=false")) {
            ConditionEvaluationReport report = ConditionEvaluationReport.get(app.getBeanFactory());
            assertThat(report.getExclusions()).containsAll(EXCLUDED);
            assertThat(report.getConditionAndOutcomesBySource().keySet())
                    .noneMatch(source -> EXCLUDED.stream().anyMatch(source::startsWith));
            assertThat(app.getBeanNamesForType(CircuitBreakerRegistry.class)).hasSize(1);
            assertThat(app.getBeanNamesForType(RateLimiterRegistry.class)).hasSize(1);
            assertThat(app.getBeanNamesForType(
                    io.github.resilience4j.retry.RetryRegistry.class)).isEmpty();
            assertThat(app.getBeanNamesForType(
                    io.github.resilience4j.bulkhead.BulkheadRegistry.class)).isEmpty();
        }
    }
}
