package io.swale.config.redis;

import io.swale.config.redis.FailoverDetector.Failover;
import io.swale.lifecycle.FixedDelayLoop;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes the primaries every {@code interval} on a thread of its own and hands each detected failover to
 * {@code onFailover} (the clients follow the primary themselves: JedisSentineled, JedisCluster's slot cache). A probe that fails (Redis down, election under way) is logged at debug and retried next
 * tick: the store's own calls report the outage.
 */
public final class FailoverWatch extends FixedDelayLoop {
    private static final Logger log = LoggerFactory.getLogger(FailoverWatch.class);

    private final Supplier<PrimarySnapshot> probe;
    private final Consumer<Failover> onFailover;
    private final FailoverDetector detector = new FailoverDetector();

    public FailoverWatch(Supplier<PrimarySnapshot> probe, Duration interval, Consumer<Failover> onFailover) {
        super("swale-redis-failover-watch", Duration.ZERO, interval);
        this.probe = probe;
        this.onFailover = onFailover;
    }

    /** One probe and its consequences; the scheduled thread calls it, tests may too. */
    @Override
    public void tick() {
        PrimarySnapshot now;
        try {
            now = probe.get();
        } catch (RuntimeException e) {
            log.debug("redis primary probe failed error={}", e.toString());
            return;
        }
        try {
            detector.observe(now).ifPresent(onFailover);
        } catch (RuntimeException e) {
            log.warn("redis failover handling failed error={}", e.toString());
        }
    }

    /** Before the listeners stop, after they start: the store is usable while the watch runs. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 2000;
    }
}
