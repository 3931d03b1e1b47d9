package io.swale;

import io.swale.cli.SwaleCli;
import io.swale.lifecycle.ServiceExit;
import io.swale.local.SpringAotStart;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The service. The auto-configurations excluded here match on the class path (resilience4j's starter, Spring
 * Data, Spring's transaction and persistence support) but serve nothing Swale uses: each costs its
 * configuration classes' parsing and its beans at every start (issue 18). Swale uses resilience4j's circuit
 * breaker and rate limiter registries only (http guards) and no Spring Data repository, pageable, transaction or
 * {@code @Repository} bean.
 */
@SpringBootApplication(excludeName = {
        "io.github.resilience4j.springboot.bulkhead.autoconfigure.BulkheadAutoConfiguration",
        "io.github.resilience4j.springboot.bulkhead.autoconfigure.BulkheadMetricsAutoConfiguration",
        "io.github.resilience4j.springboot.bulkhead.autoconfigure.ThreadPoolBulkheadMetricsAutoConfiguration",
        "io.github.resilience4j.springboot.retry.autoconfigure.RetryAutoConfiguration",
        "io.github.resilience4j.springboot.retry.autoconfigure.RetryMetricsAutoConfiguration",
        "io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterAutoConfiguration",
        "io.github.resilience4j.springboot.timelimiter.autoconfigure.TimeLimiterMetricsAutoConfiguration",
        "io.github.resilience4j.springboot.micrometer.autoconfigure.TimerAutoConfiguration",
        "org.springframework.boot.data.autoconfigure.metrics.DataRepositoryMetricsAutoConfiguration",
        "org.springframework.boot.data.autoconfigure.web.DataWebAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration",
        "org.springframework.boot.netty.autoconfigure.NettyAutoConfiguration",
        "org.springframework.boot.persistence.autoconfigure.PersistenceExceptionTranslationAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration"})
public class SwaleApplication {
    /**
     * No arguments, or only {@code --option=value} arguments, start the service (interfaces §4); anything else runs
     * the command line ({@code swale status}, …), which refuses what names no command. The bench is not part of
     * this jar: {@code bin/swale bench} runs it next to the jar.
     */
    public static void main(String[] args) {
        if (args.length > 0 && "bench".equals(args[0])) {
            // formerly dispatched here: say where it went rather than start the service
            System.err.println("swale: the bench is not part of the service jar; run bin/swale bench (./mvnw package builds"
                    + " target/bench/ next to the jar)");
            System.exit(2);
        }
        if (!SwaleCli.startsTheService(args)) {
            System.exit(SwaleCli.execute(args));
        }
        SpringAotStart.allowForThisProcess();
        ServiceExit.stopsWithZeroOnSignals();
        ServiceExit.run(() -> SpringApplication.run(SwaleApplication.class, args));
    }
}
