package io.swale.settings;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.api.dashboard.DashboardProperties;
import io.swale.security.SwaleSecurityProperties;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/** The property records: the defaults of the former JavaBeans, and a start that fails naming a bad property. */
class PropertiesBindingTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({SwaleProperties.class, OpsProperties.class, DashboardProperties.class,
            SwaleSecurityProperties.class})
    static class AllProperties {}

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(AllProperties.class);

    static <T> T bind(String prefix, Class<T> type, Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, type);
    }

    @Test
    void everythingAbsentGivesTheDefaults() {
        SwaleProperties p = bind("swale", SwaleProperties.class, Map.of());
        assertThat(p.roles()).containsExactly("scheduler", "pool", "api");
        assertThat(p.pools()).isEmpty();
        assertThat(p.defaultSlots()).isEqualTo(4);
        assertThat(p.autoCreatePools()).isFalse();
        assertThat(p.examples()).isEmpty();
        assertThat(p.retention()).isEqualTo("90d");
        assertThat(p.retentionPeriod()).isEqualTo(Duration.ofDays(90));
        assertThat(p.kafka()).isEqualTo(new KafkaSettings("swale.", 4, (short) 1, 4, new ConsumerSettings(Duration.ofSeconds(10),
                Duration.ofSeconds(1), List.of(ConsumerSettings.Assignor.COOPERATIVE_STICKY), "")));
        assertThat(p.redis().keyPrefix()).isEqualTo("swale");
        assertThat(p.scheduler()).isEqualTo(new SchedulerSettings(Duration.ofSeconds(60), Duration.ofSeconds(30),
                Duration.ofSeconds(60), Duration.ofMillis(200), Duration.ofSeconds(5), Duration.ofSeconds(1),
                Duration.ofSeconds(30), DataSize.ofKilobytes(256)));
        assertThat(p.worker()).isEqualTo(new WorkerSettings(List.of(), 64, Duration.ofMillis(200),
                Duration.ofSeconds(60), Duration.ofSeconds(20), Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofMinutes(5), 0.2, Duration.ofSeconds(30), ""));
        assertThat(p.worker().serves("any")).isTrue();
        assertThat(p.s3().endpointValue()).isEmpty();
        assertThat(p.s3().regionValue()).isEmpty();
        assertThat(p.s3().pathStyle()).isTrue();
        assertThat(p.http().guards()).isTrue();

        assertThat(bind("swale.ops", OpsProperties.class, Map.of()))
                .isEqualTo(new OpsProperties(Duration.ofSeconds(5), Duration.ofSeconds(15)));
        assertThat(bind("swale.dashboard", DashboardProperties.class, Map.of())).isEqualTo(
                new DashboardProperties(Duration.ofMillis(500), Duration.ofSeconds(15), Duration.ofMinutes(30), 200, 24));
        assertThat(bind("swale.security", SwaleSecurityProperties.class, Map.of()))
                .isEqualTo(new SwaleSecurityProperties("", false, true));
    }

    @Test
    void oneSetPropertyLeavesTheRestOfItsGroupAtTheDefaults() {
        SwaleProperties p = bind("swale", SwaleProperties.class, Map.of("swale.worker.lease", "3s",
                "swale.pools.gpu.slots", "2", "swale.pools.cpu.slots", "8", "swale.scheduler.retention-interval", "1d",
                "swale.roles", "pool,api", "swale.worker.pools", "gpu"));
        assertThat(p.worker().lease()).isEqualTo(Duration.ofSeconds(3));
        assertThat(p.worker().heartbeat()).as("a third of the lease when unset").isEqualTo(Duration.ofSeconds(1));
        assertThat(p.worker().serves("gpu")).isTrue();
        assertThat(p.worker().serves("cpu")).isFalse();
        assertThat(p.pools()).containsEntry("gpu", new PoolSettings(2)).containsEntry("cpu", new PoolSettings(8));
        assertThat(p.scheduler().retentionInterval()).isEqualTo(Duration.ofDays(1));
        assertThat(p.hasRole("pool")).isTrue();
        assertThat(p.hasRole("scheduler")).isFalse();
    }

    @Test
    void consumerSettingsBindFromTheirKebabNames() {
        SwaleProperties p = bind("swale", SwaleProperties.class, Map.of("swale.kafka.consumer.session-timeout", "30s",
                "swale.kafka.consumer.heartbeat-interval", "3s", "swale.kafka.consumer.assignment",
                "cooperative-sticky,range", "swale.kafka.consumer.group-instance-id", "swale-worker-0"));
        assertThat(p.kafka().consumer()).isEqualTo(new ConsumerSettings(Duration.ofSeconds(30), Duration.ofSeconds(3),
                List.of(ConsumerSettings.Assignor.COOPERATIVE_STICKY, ConsumerSettings.Assignor.RANGE), "swale-worker-0"));
    }

    @Test
    void theContextStartsWithNothingSet() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(SwaleProperties.class).worker().dispatchBatch()).isEqualTo(64);
        });
    }

    /** A pool this replica serves is configured, is the default pool, or is created when a definition names it. */
    @Test
    void aServedPoolIsConfiguredOrCreatedOnDemand() {
        runner.withPropertyValues("swale.worker.pools=default,gpu", "swale.pools.gpu.slots=2")
                .run(context -> assertThat(context).hasNotFailed());
        runner.withPropertyValues("swale.worker.pools=gpu", "swale.auto-create-pools=true")
                .run(context -> assertThat(context).hasNotFailed());
        runner.withPropertyValues("swale.worker.pools=gpu", "swale.roles=scheduler,api")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "swale.roles=scheduler,poool          | swale.roles: unknown role `poool`",
            "swale.default-slots=0                | swale.default-slots must be at least 1, got 0",
            "swale.pools.gpu.slots=-1             | swale.pools.gpu.slots must be at least 1, got -1",
            "swale.retention=90 days              | swale.retention: ",
            "swale.kafka.partitions=0             | swale.kafka.partitions must be at least 1",
            "swale.kafka.listener-concurrency=0   | swale.kafka.listener-concurrency must be at least 1",
            "swale.kafka.consumer.session-timeout=0s | swale.kafka.consumer.session-timeout must be longer than zero",
            "swale.kafka.consumer.heartbeat-interval=4s | swale.kafka.consumer.heartbeat-interval must be at most a third of swale.kafka.consumer.session-timeout",
            "swale.kafka.consumer.group-instance-id=pod/1 | swale.kafka.consumer.group-instance-id must be 1 to 200 characters",
            "swale.redis.key-prefix=              | swale.redis.key-prefix must not be blank",
            "swale.scheduler.reconcile-interval=0s | swale.scheduler.reconcile-interval must be longer than zero",
            "swale.scheduler.retention-interval=-1s | swale.scheduler.retention-interval must be longer than zero",
            "swale.worker.dispatch-batch=0        | swale.worker.dispatch-batch must be at least 1, got 0",
            "swale.worker.pools=gpuu              | swale.worker.pools: pool `gpuu` is not configured (swale.pools.gpuu.slots) and swale.auto-create-pools is off",
            "swale.worker.slot-wait=-1ms          | swale.worker.slot-wait must not be negative",
            "swale.worker.lease=0s                | swale.worker.lease must be longer than zero",
            "swale.worker.heartbeat=60s           | swale.worker.heartbeat must be shorter than swale.worker.lease",
            "swale.worker.cancel-poll=500us       | swale.worker.cancel-poll must be at least 1ms, got PT0.0005S",
            "swale.worker.retry-jitter=1.5        | swale.worker.retry-jitter must be at least 0 and below 1, got 1.5",
            "swale.worker.retry-max=10ms          | swale.worker.retry-max must not be shorter than swale.worker.retry-initial",
            "swale.ops.kafka-timeout=0s           | swale.ops.kafka-timeout must be longer than zero",
            "swale.dashboard.recent-runs=0        | swale.dashboard.recent-runs must be at least 1",
            "swale.dashboard.heartbeat=-1s        | swale.dashboard.heartbeat must be longer than zero",
    })
    void aBadValueFailsTheStartNamingTheProperty(String property, String message) {
        runner.withPropertyValues(property).run(context -> {
            assertThat(context).hasFailed();
            assertThat(rootCause(context.getStartupFailure())).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(message);
        });
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            if (t instanceof IllegalArgumentException) {
                return t;
            }
            t = t.getCause();
        }
        return t;
    }
}
