package io.swale.kafka;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks for one repair pass once Kafka answers again after the producer gave up on dispatches or events, so the
 * instances they were for go on within seconds of the broker's return instead of waiting for the periodic
 * reconciler (and a redispatch's doubling back-off). While Kafka stays away no pass runs: its redispatches would
 * only pile up in the producer's buffer and be given up on in turn. Passes asked for this way start at least
 * {@code spacing} apart, so a broker that refuses every record costs a pass per spacing, not a loop.
 */
public final class LostSendRepair implements LostSends, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LostSendRepair.class);
    /** A broker that refuses every record costs a repair pass this often, at most. */
    public static final Duration SPACING = Duration.ofSeconds(10);
    /** While Kafka does not answer, it is asked again this long after each failed question. */
    public static final Duration PROBE_EVERY = Duration.ofSeconds(1);

    private final BooleanSupplier kafkaAnswers;
    private final Consumer<String> requestPass;
    private final long spacingNanos;
    private final long probeEveryNanos;
    private final ScheduledExecutorService executor =
            Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("swale-lost-sends").factory());
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicLong lostSinceLastPass = new AtomicLong();
    private volatile long lastPassNanos;
    private volatile boolean closed;

    /**
     * @param kafkaAnswers whether the cluster answers now (bounded by its own timeout); asked on this class's thread
     * @param requestPass asks for a pass after a fault, with the fault's text; must return at once
     * @param spacing the least time between two passes asked for by lost sends
     * @param probeEvery how often to ask again whether Kafka answers while it does not
     */
    public LostSendRepair(BooleanSupplier kafkaAnswers, Consumer<String> requestPass, Duration spacing,
            Duration probeEvery) {
        if (spacing.isNegative() || probeEvery.isNegative() || probeEvery.isZero()) {
            throw new IllegalArgumentException("spacing must be ≥ 0 and probeEvery > 0, were " + spacing + " and "
                    + probeEvery);
        }
        this.kafkaAnswers = kafkaAnswers;
        this.requestPass = requestPass;
        this.spacingNanos = spacing.toNanos();
        this.probeEveryNanos = probeEvery.toNanos();
        this.lastPassNanos = System.nanoTime() - spacingNanos;
    }

    @Override
    public void lost(String kind, Throwable cause) {
        lostSinceLastPass.incrementAndGet();
        if (closed || !scheduled.compareAndSet(false, true)) {
            return;
        }
        long wait = Math.max(0, lastPassNanos + spacingNanos - System.nanoTime());
        schedule(wait);
    }

    private void schedule(long delayNanos) {
        try {
            executor.schedule(this::passOnceKafkaAnswers, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile: the service is stopping, and the next start's pass repairs
            scheduled.set(false);
        }
    }

    private void passOnceKafkaAnswers() {
        boolean answers;
        try {
            answers = kafkaAnswers.getAsBoolean();
        } catch (RuntimeException e) {
            answers = false;
        }
        if (!answers) {
            schedule(probeEveryNanos);
            return;
        }
        lastPassNanos = System.nanoTime();
        // cleared before the pass is asked for: a send lost after this point asks again
        scheduled.set(false);
        long lost = lostSinceLastPass.getAndSet(0);
        log.info("Kafka answers after sends were given up on: a repair pass follows lost={}", lost);
        requestPass.accept("Kafka answers again (lost sends: " + lost + ")");
    }

    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
    }
}
