package io.swale.settings;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Everything under {@code swale.*}. */
@ConfigurationProperties("swale")
public class SwaleProperties {
    /** Roles this process runs: scheduler, pool, api. */
    private List<String> roles = List.of("scheduler", "pool", "api");
    /** Pools by name, with their slots per worker replica. */
    private Map<String, Pool> pools = new LinkedHashMap<>();
    /** Slots of the default pool and of pools created on demand in the local profile. */
    private int defaultSlots = 4;
    /** Create a pool a published definition names when configuration lacks it (local profile). */
    private boolean autoCreatePools = false;
    /** Definition files published at start-up and each sync pass (local profile). */
    private String examples = "";
    /** How long settled runs are kept before the retention pass removes them (§12), e.g. {@code 90d}. */
    private String retention = "90d";
    private final Kafka kafka = new Kafka();
    private final Redis redis = new Redis();
    private final Scheduler scheduler = new Scheduler();
    private final Worker worker = new Worker();
    private final S3 s3 = new S3();
    private final Http http = new Http();

    /** How object_exists reaches s3:// objects. */
    public static class S3 {
        /** An S3-compatible endpoint; else AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS itself. */
        private String endpoint;
        /** Else AWS_REGION, AWS_DEFAULT_REGION, else us-east-1. */
        private String region;
        private boolean pathStyle = true;

        public String getEndpoint() {
            return endpoint;
        }

        public void setEndpoint(String endpoint) {
            this.endpoint = endpoint;
        }

        public String getRegion() {
            return region;
        }

        public void setRegion(String region) {
            this.region = region;
        }

        public boolean isPathStyle() {
            return pathStyle;
        }

        public void setPathStyle(boolean pathStyle) {
            this.pathStyle = pathStyle;
        }
    }

    /** The http operator. */
    public static class Http {
        /** A resilience4j circuit breaker and rate limiter per target host (config name swale-http). */
        private boolean guards = true;

        public boolean isGuards() {
            return guards;
        }

        public void setGuards(boolean guards) {
            this.guards = guards;
        }
    }

    public S3 getS3() {
        return s3;
    }

    public Http getHttp() {
        return http;
    }

    public static class Pool {
        private int slots = 4;

        public int getSlots() {
            return slots;
        }

        public void setSlots(int slots) {
            this.slots = slots;
        }
    }

    public static class Kafka {
        private String topicPrefix = "swale.";
        private int partitions = 4;
        private short replicationFactor = 1;
        /** Consumers of the events and triggers topics per scheduler replica. */
        private int listenerConcurrency = 4;

        public String getTopicPrefix() {
            return topicPrefix;
        }

        public void setTopicPrefix(String topicPrefix) {
            this.topicPrefix = topicPrefix;
        }

        public int getPartitions() {
            return partitions;
        }

        public void setPartitions(int partitions) {
            this.partitions = partitions;
        }

        public short getReplicationFactor() {
            return replicationFactor;
        }

        public void setReplicationFactor(short replicationFactor) {
            this.replicationFactor = replicationFactor;
        }

        public int getListenerConcurrency() {
            return listenerConcurrency;
        }

        public void setListenerConcurrency(int listenerConcurrency) {
            this.listenerConcurrency = listenerConcurrency;
        }
    }

    public static class Redis {
        private String keyPrefix = "swale";

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }
    }

    public static class Scheduler {
        private Duration reconcileInterval = Duration.ofSeconds(60);
        private Duration syncInterval = Duration.ofSeconds(30);
        /** A pending instance not claimed for this long is dispatched again by the reconciler. */
        private Duration staleDispatch = Duration.ofSeconds(60);
        /** How often due retries and continuations are moved back to their pool. */
        private Duration delayedPoll = Duration.ofMillis(200);
        /** How often expired leases are looked for (cheaper and more frequent than a reconciler pass). */
        private Duration reapInterval = Duration.ofSeconds(5);

        public Duration getReapInterval() {
            return reapInterval;
        }

        public void setReapInterval(Duration reapInterval) {
            this.reapInterval = reapInterval;
        }
        /** How often the cron pump looks for due firings. */
        private Duration cronTick = Duration.ofSeconds(1);
        /** How often the retention pass runs; the sync interval when unset. */
        private Duration retentionInterval;

        public Duration getReconcileInterval() {
            return reconcileInterval;
        }

        public void setReconcileInterval(Duration reconcileInterval) {
            this.reconcileInterval = reconcileInterval;
        }

        public Duration getSyncInterval() {
            return syncInterval;
        }

        public void setSyncInterval(Duration syncInterval) {
            this.syncInterval = syncInterval;
        }

        public Duration getStaleDispatch() {
            return staleDispatch;
        }

        public void setStaleDispatch(Duration staleDispatch) {
            this.staleDispatch = staleDispatch;
        }

        public Duration getCronTick() {
            return cronTick;
        }

        public void setCronTick(Duration cronTick) {
            this.cronTick = cronTick;
        }

        public Duration getRetentionInterval() {
            return retentionInterval == null ? syncInterval : retentionInterval;
        }

        public void setRetentionInterval(Duration retentionInterval) {
            this.retentionInterval = retentionInterval;
        }

        public Duration getDelayedPoll() {
            return delayedPoll;
        }

        public void setDelayedPoll(Duration delayedPoll) {
            this.delayedPoll = delayedPoll;
        }
    }

    public static class Worker {
        /**
         * The pools this replica serves; empty serves every configured pool. A Deployment per pool sets its
         * own, so a gpu worker does not also take the default pool's work.
         */
        private List<String> pools = List.of();

        public List<String> getPools() {
            return pools;
        }

        public void setPools(List<String> pools) {
            this.pools = pools;
        }

        public boolean serves(String pool) {
            return pools.isEmpty() || pools.contains(pool);
        }

        /**
         * Dispatches a pool's listener takes in one poll: as many as its free slots allow are claimed in one
         * round trip and committed together; the rest go back to the topic.
         */
        private int dispatchBatch = 64;

        public int getDispatchBatch() {
            return dispatchBatch;
        }

        public void setDispatchBatch(int dispatchBatch) {
            if (dispatchBatch < 1) {
                throw new IllegalArgumentException("swale.worker.dispatch-batch must be at least 1, got " + dispatchBatch);
            }
            this.dispatchBatch = dispatchBatch;
        }

        /**
         * How long the dispatch listener waits for a slot while every slot is busy before it hands the rest
         * of its poll back and pauses until one frees up. Short attempts end within it, so the listener
         * keeps its prefetched dispatches instead of fetching them again.
         */
        private Duration slotWait = Duration.ofMillis(200);

        public Duration getSlotWait() {
            return slotWait;
        }

        public void setSlotWait(Duration slotWait) {
            if (slotWait.isNegative()) {
                throw new IllegalArgumentException("swale.worker.slot-wait must not be negative, got " + slotWait);
            }
            this.slotWait = slotWait;
        }

        private Duration lease = Duration.ofSeconds(60);
        private Duration heartbeat = Duration.ofSeconds(20);
        /** How often a running attempt checks its cancel flag. */
        private Duration cancelPoll = Duration.ofSeconds(1);
        private Duration retryInitial = Duration.ofSeconds(1);
        private Duration retryMax = Duration.ofMinutes(5);
        /** Fraction (0 ≤ j < 1) of a retry delay taken off at random, so retries spread without passing the cap. */
        private double retryJitter = 0.2;
        /** How long in-flight attempts may run on after shutdown began before their leases are given back. */
        private Duration shutdownGrace = Duration.ofSeconds(30);
        /** This worker's name in claims and attempt history; empty: host:pid:random. */
        private String id = "";

        public double getRetryJitter() {
            return retryJitter;
        }

        public void setRetryJitter(double retryJitter) {
            this.retryJitter = retryJitter;
        }

        public Duration getShutdownGrace() {
            return shutdownGrace;
        }

        public void setShutdownGrace(Duration shutdownGrace) {
            this.shutdownGrace = shutdownGrace;
        }

        public String getId() {
            return id;
        }

        public void setId(String id) {
            this.id = id;
        }

        public Duration getLease() {
            return lease;
        }

        public void setLease(Duration lease) {
            this.lease = lease;
        }

        public Duration getHeartbeat() {
            return heartbeat;
        }

        public void setHeartbeat(Duration heartbeat) {
            this.heartbeat = heartbeat;
        }

        public Duration getCancelPoll() {
            return cancelPoll;
        }

        public void setCancelPoll(Duration cancelPoll) {
            this.cancelPoll = cancelPoll;
        }

        public Duration getRetryInitial() {
            return retryInitial;
        }

        public void setRetryInitial(Duration retryInitial) {
            this.retryInitial = retryInitial;
        }

        public Duration getRetryMax() {
            return retryMax;
        }

        public void setRetryMax(Duration retryMax) {
            this.retryMax = retryMax;
        }
    }

    public List<String> getRoles() {
        return roles;
    }

    public void setRoles(List<String> roles) {
        this.roles = roles;
    }

    public boolean hasRole(String role) {
        return roles.contains(role);
    }

    public Map<String, Pool> getPools() {
        return pools;
    }

    public void setPools(Map<String, Pool> pools) {
        this.pools = pools;
    }

    public int getDefaultSlots() {
        return defaultSlots;
    }

    public void setDefaultSlots(int defaultSlots) {
        this.defaultSlots = defaultSlots;
    }

    public boolean isAutoCreatePools() {
        return autoCreatePools;
    }

    public void setAutoCreatePools(boolean autoCreatePools) {
        this.autoCreatePools = autoCreatePools;
    }

    public String getExamples() {
        return examples;
    }

    public void setExamples(String examples) {
        this.examples = examples;
    }

    public String getRetention() {
        return retention;
    }

    public void setRetention(String retention) {
        this.retention = retention;
    }

    public Kafka getKafka() {
        return kafka;
    }

    public Redis getRedis() {
        return redis;
    }

    public Scheduler getScheduler() {
        return scheduler;
    }

    public Worker getWorker() {
        return worker;
    }
}
