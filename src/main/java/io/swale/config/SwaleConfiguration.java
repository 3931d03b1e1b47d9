package io.swale.config;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.swale.config.redis.RedisClientFactory;
import io.swale.cron.DialectCronCheck;
import io.swale.definition.CronCheck;
import io.swale.definition.DefinitionLimits;
import io.swale.definition.DefinitionLoader;
import io.swale.kafka.KafkaDeadLetters;
import io.swale.kafka.KafkaDispatcher;
import io.swale.kafka.KafkaEventPublisher;
import io.swale.kafka.KafkaInspector;
import io.swale.kafka.KafkaTriggerPublisher;
import io.swale.kafka.ListenerContainers;
import io.swale.kafka.ListenerFailure;
import io.swale.kafka.LostSendRepair;
import io.swale.kafka.PoolTopics;
import io.swale.kafka.ReportedSends;
import io.swale.kafka.SwaleTopics;
import io.swale.metrics.MicrometerSwaleMetrics;
import io.swale.operator.HostGuards;
import io.swale.operator.OperatorRegistry;
import io.swale.operator.Resilience4jHostGuards;
import io.swale.operator.S3Settings;
import io.swale.run.Adoption;
import io.swale.run.AfterFaultReconcile;
import io.swale.run.DefinitionCatalog;
import io.swale.run.GraphRuns;
import io.swale.run.Reconciler;
import io.swale.run.RetentionPass;
import io.swale.run.RunCancellation;
import io.swale.run.RunReruns;
import io.swale.run.Submission;
import io.swale.settings.LimitsSettings;
import io.swale.settings.RedisSettings;
import io.swale.settings.ResourcesProperties;
import io.swale.settings.SwaleProperties;
import io.swale.store.DefinitionStore;
import io.swale.store.ExpiryStore;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import io.swale.store.WatermarkStore;
import io.swale.store.redis.RedisDefinitionStore;
import io.swale.store.redis.Durability;
import io.swale.store.redis.RedisExpiryStore;
import io.swale.store.redis.RedisLayout;
import io.swale.store.redis.RedisRunStore;
import io.swale.store.redis.RedisTaskStore;
import io.swale.store.redis.RedisWatermarkStore;
import io.swale.task.LeaseReaper;
import io.swale.task.RepairFailures;
import io.swale.task.SwaleMetrics;
import io.swale.task.Terminations;
import io.swale.trigger.CronPump;
import io.swale.trigger.TriggerHandler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import redis.clients.jedis.UnifiedJedis;

/** Wires the pure core to Redis and Kafka. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SwaleProperties.class)
public class SwaleConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** The one Redis client of the stores, on the checked {@code spring.data.redis.*} topology. */
    @Bean(destroyMethod = "close")
    UnifiedJedis redis(RedisClientFactory clients, SwaleProperties props) {
        UnifiedJedis redis = clients.unifiedJedis();
        try {
            RedisLayout.check(redis, props.redis().keyPrefix());
            if (props.redis().durabilityMode() == RedisSettings.Durability.FSYNC) {
                RedisLayout.requireFsync(redis);
            }
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
        return redis;
    }

    /** The write durability of {@code swale.redis.durability}: {@code wait} waits for replicas. */
    static Durability durability(SwaleProperties props) {
        RedisSettings r = props.redis();
        return r.durabilityMode() == RedisSettings.Durability.WAIT
                ? Durability.waitFor(r.waitReplicas(), r.waitTimeout().toMillis()) : Durability.NONE;
    }

    @Bean
    DefinitionStore definitionStore(UnifiedJedis redis, SwaleProperties props) {
        return new RedisDefinitionStore(redis, props.redis().keyPrefix());
    }

    @Bean
    RunStore runStore(UnifiedJedis redis, SwaleProperties props) {
        return new RedisRunStore(redis, props.redis().keyPrefix(), durability(props));
    }

    @Bean
    TaskStore taskStore(UnifiedJedis redis, SwaleProperties props) {
        return new RedisTaskStore(redis, props.redis().keyPrefix(), props.retentionPeriod(), durability(props));
    }

    @Bean
    @ConditionalOnMissingBean
    OperatorRegistry operatorRegistry(SwaleProperties props, ObjectProvider<CircuitBreakerRegistry> breakers,
            ObjectProvider<RateLimiterRegistry> limiters) {
        HostGuards guards = HostGuards.NONE;
        CircuitBreakerRegistry cb = breakers.getIfAvailable();
        RateLimiterRegistry rl = limiters.getIfAvailable();
        if (props.http().guards() && cb != null && rl != null) {
            guards = new Resilience4jHostGuards(cb, rl);
        }
        var s3 = props.s3();
        return OperatorRegistry.builtIn(guards, S3Settings.resolve(s3.endpointValue(),
                s3.regionValue(), s3.pathStyle(), System.getenv()));
    }

    @Bean
    @ConditionalOnMissingBean
    CronCheck cronCheck() {
        return new DialectCronCheck();
    }

    @Bean
    DefinitionLoader definitionLoader(OperatorRegistry operators, CronCheck cron, SwaleProperties props) {
        LimitsSettings l = props.limits();
        // Kafka topic names hold 249 characters: the pool's topic and its .DLT must both fit
        int poolName = 249 - new SwaleTopics(props.kafka().topicPrefix()).pool("").length() - ".DLT".length();
        return new DefinitionLoader(operators, cron, new DefinitionLimits(l.depth(), l.nodes(), l.stringLength(),
                l.keyLength(), l.yamlAliases(), l.yamlExpansion(), Math.max(1, poolName)));
    }

    @Bean
    DefinitionCatalog definitionCatalog(DefinitionStore store, DefinitionLoader loader, ResourcesProperties resources,
            ObjectProvider<ResourceConfiguration.DeclaredResources> declared) {
        // strict resource mode checks a literal lease of what is published (by request, from the definitions folder,
        // as a growth) against the declared capacities; a stored definition loads whatever is declared now
        return new DefinitionCatalog(store, loader, resources.strict()
                ? loader.withDeclaredResources(name -> declared.getObject().declares(name)) : loader);
    }

    @Bean
    ConfiguredPools poolCatalog(SwaleProperties props) {
        Map<String, Integer> configured = new LinkedHashMap<>();
        props.pools().forEach((name, pool) -> configured.put(name, pool.slots()));
        return new ConfiguredPools(configured, props.defaultSlots(), props.autoCreatePools());
    }

    @Bean
    SwaleTopics swaleTopics(SwaleProperties props) {
        return new SwaleTopics(props.kafka().topicPrefix());
    }

    @Bean
    PoolTopics poolTopics(KafkaAdmin admin, SwaleTopics topics, SwaleProperties props,
            DefaultKafkaProducerFactory<String, byte[]> producers) {
        // bounded like a send: the first dispatch to a pool creates its topics in the sender's thread
        KafkaAdmin bounded = PoolTopics.boundedAdmin(admin.getConfigurationProperties(),
                ProducerDefaults.maxBlock(producers.getConfigurationProperties()));
        return new PoolTopics(bounded, topics, props.kafka().partitions(), props.kafka().replicationFactor());
    }

    @Bean
    KafkaAdmin.NewTopics swaleNewTopics(SwaleTopics topics, PoolTopics poolTopics, ConfiguredPools pools) {
        List<NewTopic> all = new ArrayList<>();
        for (String t : List.of(topics.events(), topics.triggers())) {
            all.add(poolTopics.topic(t));
            all.add(poolTopics.topic(SwaleTopics.deadLetter(t)));
        }
        for (String pool : pools.pools().keySet()) {
            all.add(poolTopics.topic(topics.pool(pool)));
            all.add(poolTopics.topic(SwaleTopics.deadLetter(topics.pool(pool))));
        }
        return new KafkaAdmin.NewTopics(all.toArray(NewTopic[]::new));
    }

    /**
     * A bean, so the context closes it (after every lifecycle stop, the shutdown hand-over's included): closing
     * flushes what is still buffered, such as the last terminations' events, instead of dropping it at exit.
     */
    @Bean
    DefaultKafkaProducerFactory<String, byte[]> swaleProducerFactory(KafkaProperties kafka) {
        return new DefaultKafkaProducerFactory<>(ProducerDefaults.apply(kafka.buildProducerProperties()));
    }

    @Bean
    KafkaTemplate<String, byte[]> swaleKafkaTemplate(DefaultKafkaProducerFactory<String, byte[]> producers) {
        return new KafkaTemplate<>(producers);
    }

    @Bean
    ListenerContainers listenerContainers(KafkaProperties kafka, KafkaTemplate<String, byte[]> template,
            SwaleMetrics metrics, SwaleProperties props) {
        return new ListenerContainers(ConsumerGroupProperties.apply(kafka.buildConsumerProperties(),
                props.kafka().consumer()), template, metrics);
    }

    @Bean
    SwaleMetrics swaleMetrics(ObjectProvider<MeterRegistry> registry) {
        MeterRegistry r = registry.getIfAvailable();
        return r == null ? SwaleMetrics.NONE : new MicrometerSwaleMetrics(r);
    }

    @Bean
    KafkaDispatcher dispatcher(DefaultKafkaProducerFactory<String, byte[]> producers, SwaleTopics topics,
            PoolTopics poolTopics, LostSendRepair lost) {
        return new KafkaDispatcher(ReportedSends.template(producers), topics, poolTopics, lost);
    }

    @Bean
    KafkaEventPublisher eventPublisher(DefaultKafkaProducerFactory<String, byte[]> producers, SwaleTopics topics,
            LostSendRepair lost) {
        return new KafkaEventPublisher(ReportedSends.template(producers), topics, lost);
    }

    /** Lazy: the pass it asks for needs the reconciler, which needs the dispatcher that tells it. */
    @Bean(destroyMethod = "close")
    LostSendRepair lostSendRepair(ObjectProvider<AfterFaultReconcile> afterFault, KafkaInspector kafka,
            SwaleMetrics metrics) {
        // the pass sends again what is pending since FAULT_STALE_DISPATCH_MS: it waits that long after Kafka answers
        Duration passDelay = Duration.ofMillis(Reconciler.FAULT_STALE_DISPATCH_MS + 1_000);
        return new LostSendRepair(kafka::leadersOf, ListenerFailure::isOutage,
                fault -> afterFault.getObject().request(fault), new LostSendRepair.Settings(LostSendRepair.SPACING,
                        LostSendRepair.PROBE_EVERY, passDelay, LostSendRepair.AWAY_AT_MOST), metrics);
    }

    @Bean
    KafkaDeadLetters deadLetters(KafkaTemplate<String, byte[]> template, SwaleTopics topics, Clock clock,
            SwaleMetrics metrics) {
        return new KafkaDeadLetters(template, topics, clock, metrics);
    }

    @Bean
    Submission submission(TaskStore tasks, KafkaDispatcher dispatcher, ConfiguredPools pools, SwaleMetrics metrics,
            Clock clock) {
        return new Submission(tasks, dispatcher, pools, metrics, clock);
    }

    @Bean
    GraphRuns graphRuns(DefinitionCatalog catalog, DefinitionStore store, RunStore runs, TaskStore tasks,
            Submission submission, Clock clock, SwaleMetrics metrics, KafkaEventPublisher events) {
        GraphRuns graphRuns = new GraphRuns(catalog, store, runs, tasks, submission, clock, metrics);
        graphRuns.publishDerivedTo(events);
        return graphRuns;
    }

    @Bean
    RunCancellation runCancellation(DefinitionCatalog catalog, RunStore runs, TaskStore tasks, Clock clock,
            SwaleMetrics metrics, KafkaEventPublisher events) {
        return new RunCancellation(catalog, runs, tasks, clock, metrics, events);
    }

    @Bean
    RunReruns runReruns(DefinitionCatalog catalog, RunStore runs, TaskStore tasks, Submission submission, Clock clock,
            GraphRuns graphRuns, RunCancellation cancellation) {
        return new RunReruns(catalog, runs, tasks, submission, clock, graphRuns, cancellation);
    }

    @Bean
    Terminations terminations(TaskStore tasks, KafkaEventPublisher events, KafkaDeadLetters deadLetters, Clock clock,
            SwaleMetrics metrics, DefinitionCatalog catalog, RunStore runs, ConfiguredPools pools) {
        return new Terminations(tasks, events, deadLetters, clock, metrics,
                new io.swale.run.DeclaredGrowth(catalog, runs, pools));
    }

    @Bean
    RepairFailures repairFailures(RunStore runs, SwaleMetrics metrics, Clock clock) {
        return new RepairFailures(runs, metrics, clock, ListenerFailure::isOutage);
    }

    @Bean
    LeaseReaper leaseReaper(RunStore runs, TaskStore tasks, Terminations terminations, KafkaDispatcher dispatcher,
            RepairFailures failures) {
        return new LeaseReaper(runs, tasks, terminations, dispatcher, failures);
    }

    @Bean
    Reconciler reconciler(RunStore runs, TaskStore tasks, GraphRuns graphRuns, RunCancellation cancellation,
            LeaseReaper reaper, KafkaDispatcher dispatcher, SwaleProperties props, SwaleMetrics metrics,
            RepairFailures failures, Terminations terminations) {
        return new Reconciler(runs, tasks, graphRuns, cancellation, reaper, dispatcher,
                props.scheduler().staleDispatch().toMillis(), metrics, failures, terminations);
    }

    @Bean
    AfterFaultReconcile afterFaultReconcile(Reconciler reconciler) {
        return new AfterFaultReconcile(reconciler::passAfterFault);
    }

    @Bean
    Adoption adoption(DefinitionStore store, DefinitionCatalog catalog, ConfiguredPools pools, Clock clock) {
        return new Adoption(store, catalog, pools, clock);
    }

    @Bean
    WatermarkStore watermarkStore(UnifiedJedis redis, SwaleProperties props) {
        return new RedisWatermarkStore(redis, props.redis().keyPrefix());
    }

    @Bean
    ExpiryStore expiryStore(UnifiedJedis redis, SwaleProperties props) {
        return new RedisExpiryStore(redis, props.redis().keyPrefix());
    }

    @Bean
    KafkaTriggerPublisher triggerPublisher(KafkaTemplate<String, byte[]> template, SwaleTopics topics) {
        return new KafkaTriggerPublisher(template, topics);
    }

    @Bean
    CronPump cronPump(DefinitionStore store, DefinitionCatalog catalog, WatermarkStore watermarks,
            KafkaTriggerPublisher publisher, Clock clock, SwaleProperties props) {
        return new CronPump(store, catalog, watermarks, publisher, clock, props.scheduler().cronTick());
    }

    @Bean
    TriggerHandler triggerHandler(DefinitionStore store, DefinitionCatalog catalog, GraphRuns graphRuns,
            SwaleProperties props) {
        return new TriggerHandler(store, catalog, graphRuns, props.limits().startPartitions());
    }

    @Bean
    RetentionPass retentionPass(ExpiryStore expiry, DefinitionCatalog catalog, Clock clock, SwaleProperties props) {
        return new RetentionPass(expiry, catalog, clock, props.retentionPeriod());
    }

    @Bean
    LockingTaskExecutor lockingTaskExecutor(RedisConnectionFactory redis, SwaleProperties props) {
        return new DefaultLockingTaskExecutor(new RedisLockProvider(redis, "swale", props.redis().keyPrefix() + ":lock"));
    }
}
