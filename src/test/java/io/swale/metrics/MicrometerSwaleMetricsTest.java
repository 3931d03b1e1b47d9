package io.swale.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MicrometerSwaleMetricsTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MicrometerSwaleMetrics metrics = new MicrometerSwaleMetrics(registry);

    @Test
    void eachNameAndTagsCountsOnItsOwnMeterAcrossCalls() {
        metrics.taskTerminated("default", "succeeded");
        metrics.taskTerminated("default", "succeeded");
        metrics.taskTerminated("default", "failed");
        metrics.taskTerminated("etl", "succeeded");
        metrics.settleRetried("default");
        metrics.heartbeatFailed("default");

        assertThat(registry.get(MicrometerSwaleMetrics.TASKS_TERMINATED).tags("pool", "default", "outcome", "succeeded")
                .counter().count()).isEqualTo(2);
        assertThat(registry.get(MicrometerSwaleMetrics.TASKS_TERMINATED).tags("pool", "default", "outcome", "failed")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get(MicrometerSwaleMetrics.TASKS_TERMINATED).tags("pool", "etl").counter().count())
                .isEqualTo(1);
        // two meters with the same tags but other names stay apart
        assertThat(registry.get(MicrometerSwaleMetrics.SETTLE_RETRIES).counter().count()).isEqualTo(1);
        assertThat(registry.get(MicrometerSwaleMetrics.HEARTBEAT_FAILURES).counter().count()).isEqualTo(1);
    }

    @Test
    void lostSendsCountByKindAndReason() {
        metrics.sendLost("dispatch", "unreachable");
        metrics.sendLost("dispatch", "unsent");
        metrics.sendLost("dispatch", "unsent");
        metrics.sendLost("event", "unsent");
        assertThat(registry.get(MicrometerSwaleMetrics.SENDS_LOST).tags("kind", "dispatch", "reason", "unsent")
                .counter().count()).isEqualTo(2);
        assertThat(registry.get(MicrometerSwaleMetrics.SENDS_LOST).tags("reason", "unsent").counters())
                .hasSize(2);
        assertThat(registry.scrape()).contains("swale_kafka_sends_lost_total{kind=\"dispatch\",reason=\"unreachable\"} 1.0");
    }

    @Test
    void theTimersKeepTheirHistogramsAndDescriptions() {
        metrics.attemptFinished("default", "succeeded", TimeUnit.MILLISECONDS.toNanos(3));
        metrics.attemptFinished("default", "succeeded", TimeUnit.MILLISECONDS.toNanos(5));
        metrics.started("default", 7);
        metrics.submitted("default", 1);

        Timer duration = registry.get(MicrometerSwaleMetrics.TASK_DURATION).tags("pool", "default", "result", "succeeded")
                .timer();
        assertThat(duration.count()).isEqualTo(2);
        assertThat(duration.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(8);
        assertThat(duration.getId().getDescription()).isEqualTo("Duration of one attempt, claim to settle");
        assertThat(registry.get(MicrometerSwaleMetrics.SUBMITTED_TO_STARTED).tags("pool", "default").timer()
                .max(TimeUnit.MILLISECONDS)).isEqualTo(7);
        // the percentile histograms, as Prometheus scrapes them
        assertThat(registry.scrape()).contains("swale_tasks_duration_seconds_bucket{pool=\"default\",result=\"succeeded\"")
                .contains("swale_tasks_ready_to_submitted_seconds_bucket{pool=\"default\"");
        // an attempt's histogram reaches hours, a latency's ten minutes
        assertThat(largestBucketSeconds(MicrometerSwaleMetrics.TASK_DURATION)).isGreaterThan(3_600);
        assertThat(largestBucketSeconds(MicrometerSwaleMetrics.SUBMITTED_TO_STARTED)).isBetween(300.0, 600.0);
    }

    /** The largest finite bucket bound, in seconds, of a timer's histogram as Prometheus scrapes it. */
    private double largestBucketSeconds(String timer) {
        String bucket = timer.replace('.', '_') + "_seconds_bucket{";
        return registry.scrape().lines().filter(l -> l.startsWith(bucket) && !l.contains("le=\"+Inf\""))
                .mapToDouble(l -> Double.parseDouble(l.replaceAll(".*le=\"([^\"]+)\".*", "$1")))
                .max().orElseThrow();
    }
}
