package io.swale.settings;

import static io.swale.settings.PropertyChecks.atLeast;
import static io.swale.settings.PropertyChecks.notNegative;
import static io.swale.settings.PropertyChecks.positive;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.worker.*}: how a pool-role replica claims, runs and retries attempts.
 *
 * @param pools The pools this replica serves; empty serves every configured pool. A Deployment per pool sets
 *     its own, so a gpu worker does not also take the default pool's work. Each must be default or configured
 *     (swale.pools.NAME.slots) unless swale.auto-create-pools is on: a start naming another fails.
 * @param dispatchBatch Dispatches a pool's listener takes in one poll: as many as its free slots allow are
 *     claimed in one round trip and committed together; the rest go back to the topic.
 * @param slotWait How long the dispatch listener waits for a slot while every slot is busy before it hands
 *     the rest of its poll back and pauses until one frees up. Short attempts end within it, so the listener
 *     keeps its prefetched dispatches instead of fetching them again.
 * @param lease How long a claim holds an instance without a heartbeat.
 * @param heartbeat How often a running attempt renews its lease; shorter than the lease, a third of it when
 *     unset (20 s for the default lease, as spec §8.2 has it). A renewal that fails is tried again every cancel-poll, so a store outage shorter than
 *     {@code lease − heartbeat} loses no claim.
 * @param cancelPoll How often a running attempt checks its cancel flag (and retries a failed renewal); at least
 *     1 ms.
 * @param retryInitial The first retry's delay; later ones grow from it.
 * @param retryMax The longest delay between retries.
 * @param retryJitter Fraction (0 ≤ j &lt; 1) of a retry delay added at random, so retries spread; a delay is
 *     never shorter than the backoff's nor longer than the cap.
 * @param shutdownGrace How long in-flight attempts may run on after shutdown began before their leases are
 *     given back.
 * @param id This worker's name in claims and attempt history; empty: host:pid:random.
 */
public record WorkerSettings(
        @DefaultValue List<String> pools,
        @DefaultValue("64") int dispatchBatch,
        @DefaultValue("200ms") Duration slotWait,
        @DefaultValue("60s") Duration lease,
        Duration heartbeat,
        @DefaultValue("1s") Duration cancelPoll,
        @DefaultValue("1s") Duration retryInitial,
        @DefaultValue("5m") Duration retryMax,
        @DefaultValue("0.2") double retryJitter,
        @DefaultValue("30s") Duration shutdownGrace,
        @DefaultValue("") String id) {

    public WorkerSettings {
        pools = List.copyOf(pools == null ? List.of() : pools);
        atLeast("swale.worker.dispatch-batch", dispatchBatch, 1);
        notNegative("swale.worker.slot-wait", slotWait);
        positive("swale.worker.lease", lease);
        positive("swale.worker.cancel-poll", cancelPoll);
        // the lease keeper ticks in whole milliseconds, and a tick of zero would fail every attempt's keeping
        if (cancelPoll.compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException("swale.worker.cancel-poll must be at least 1ms, got " + cancelPoll);
        }
        // spec §8.2: a 60 s lease is extended every 20 s
        heartbeat = positive("swale.worker.heartbeat", heartbeat == null ? lease.dividedBy(3) : heartbeat);
        if (heartbeat.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("swale.worker.heartbeat must be shorter than swale.worker.lease (" + lease
                    + "), got " + heartbeat);
        }
        notNegative("swale.worker.retry-initial", retryInitial);
        notNegative("swale.worker.retry-max", retryMax);
        if (retryMax.compareTo(retryInitial) < 0) {
            throw new IllegalArgumentException("swale.worker.retry-max must not be shorter than swale.worker.retry-initial ("
                    + retryInitial + "), got " + retryMax);
        }
        if (!(retryJitter >= 0 && retryJitter < 1)) {
            throw new IllegalArgumentException("swale.worker.retry-jitter must be at least 0 and below 1, got " + retryJitter);
        }
        notNegative("swale.worker.shutdown-grace", shutdownGrace);
        // an empty id (the default) names the worker host:pid:random
        id = id == null ? "" : id;
    }

    public boolean serves(String pool) {
        return pools.isEmpty() || pools.contains(pool);
    }
}
