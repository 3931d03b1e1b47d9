package io.swale.kafka;

import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repairs what the producer gave up on because Kafka was unreachable: one reconciler pass after a fault, once
 * Kafka answers again, so the instance a lost dispatch or event was for goes on within seconds instead of waiting
 * for the periodic pass (and a redispatch's doubling back-off).
 *
 * <p>From such a loss until Kafka answers, Kafka is <em>away</em>: {@link #kafkaAway()} tells the adapters to give
 * a record up at once rather than hold their caller (an API request, a listener, a slot) for {@code max.block.ms}
 * each, and no pass runs, whose redispatches would only be given up in turn. Kafka answers when every partition of
 * every topic that lost a record has a leader. The pass then waits {@code passDelay}, so that what was given up
 * just before is old enough for it to send again, and passes start at least {@code spacing} apart. A pass that
 * fails (Redis away too) is asked for again. A question that never answers cannot hold sends off for good: after
 * {@code awayAtMost} sends are tried again, and a failure makes Kafka away once more.
 *
 * <p>A record the broker refused (too large, not authorized) is only logged by its adapter: sending it again
 * would be refused again, and a pass would send every pending instance's dispatch again for nothing.
 */
public final class LostSendRepair implements LostSends, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LostSendRepair.class);
    /** Passes asked for by lost sends start at least this far apart. */
    public static final Duration SPACING = Duration.ofSeconds(10);
    /** While Kafka does not answer, it is asked again this long after each failed question. */
    public static final Duration PROBE_EVERY = Duration.ofSeconds(1);
    /** The longest sends are given up unsent after a loss, whatever the question says. */
    public static final Duration AWAY_AT_MOST = Duration.ofSeconds(30);

    /** How often it asks and how long it waits. */
    public record Settings(Duration spacing, Duration probeEvery, Duration passDelay, Duration awayAtMost) {
        public Settings {
            if (spacing.isNegative() || passDelay.isNegative() || !probeEvery.isPositive() || !awayAtMost.isPositive()) {
                throw new IllegalArgumentException("spacing and passDelay must be ≥ 0, probeEvery and awayAtMost > 0;"
                        + " were " + spacing + ", " + passDelay + ", " + probeEvery + " and " + awayAtMost);
            }
        }
    }

    private final Predicate<Set<String>> kafkaAnswers;
    private final Predicate<Throwable> unreachable;
    private final Function<String, CompletionStage<?>> requestPass;
    private final Settings settings;
    private final SwaleMetrics metrics;
    private final ScheduledExecutorService executor =
            Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("swale-lost-sends").factory());
    /** A step is queued or running; whoever clears it looks again at what is due. */
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicLong lostSinceLastPass = new AtomicLong();
    private final Set<String> lostTopics = ConcurrentHashMap.newKeySet();
    private volatile boolean away;
    private volatile long awaySinceNanos;
    private volatile long answeredNanos;
    private volatile long lastPassNanos;
    private volatile boolean closed;

    /**
     * @param kafkaAnswers whether Kafka serves these topics now (bounded by its own timeout); asked on this
     *     class's thread
     * @param unreachable whether a send's failure says Kafka is unreachable, rather than refusing the record
     * @param requestPass asks for a pass after a fault, with the fault's text, and returns at once: the stage
     *     completes when the pass has run, exceptionally when it failed
     */
    public LostSendRepair(Predicate<Set<String>> kafkaAnswers, Predicate<Throwable> unreachable,
            Function<String, CompletionStage<?>> requestPass, Settings settings, SwaleMetrics metrics) {
        this.kafkaAnswers = kafkaAnswers;
        this.metrics = metrics;
        this.unreachable = unreachable;
        this.requestPass = requestPass;
        this.settings = settings;
        long now = System.nanoTime();
        this.lastPassNanos = now - settings.spacing().toNanos();
        this.answeredNanos = now - settings.passDelay().toNanos();
    }

    /** Whether a send should be given up without trying: Kafka was found unreachable and has not answered since. */
    @Override
    public boolean kafkaAway() {
        return away && System.nanoTime() - awaySinceNanos < settings.awayAtMost().toNanos();
    }

    @Override
    public void lost(String kind, String topic, Throwable cause) {
        boolean unsent = cause == UNSENT;
        boolean counts = unsent || unreachable.test(cause);
        metrics.sendLost(kind, unsent ? "unsent" : counts ? "unreachable" : "refused");
        if (!counts) {
            return;
        }
        lostTopics.add(topic);
        lostSinceLastPass.incrementAndGet();
        if (!unsent && !kafkaAway()) {
            awaySinceNanos = System.nanoTime();
            away = true;
            log.warn("Kafka unreachable: sends are given up unsent until it answers, {} at most kind={} topic={}"
                    + " error={}", settings.awayAtMost(), kind, topic, cause.toString());
        }
        wake();
    }

    private void wake() {
        if (!closed && scheduled.compareAndSet(false, true)) {
            schedule(0);
        }
    }

    private void schedule(long delayNanos) {
        try {
            executor.schedule(this::step, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile: the service is stopping, and the next start's pass repairs
            scheduled.set(false);
        }
    }

    /** One step on this class's thread: ask Kafka until it answers, wait until the pass is due, ask for it. */
    private void step() {
        try {
            if (!answers()) {
                schedule(settings.probeEvery().toNanos());
                return;
            }
            long now = System.nanoTime();
            if (away) {
                away = false;
                answeredNanos = now;
                log.info("Kafka answers again: sends are tried again, a repair pass follows in {} or later",
                        settings.passDelay());
            }
            long due = Math.max(lastPassNanos + settings.spacing().toNanos(),
                    answeredNanos + settings.passDelay().toNanos());
            if (due > now) {
                schedule(due - now);
                return;
            }
            askForPass(now);
        } catch (Throwable t) {
            log.warn("lost-send repair step failed; tried again in {} error={}", settings.probeEvery(), t.toString());
            schedule(settings.probeEvery().toNanos());
        }
    }

    private void askForPass(long now) {
        Set<String> topics = new HashSet<>(lostTopics);
        lostTopics.removeAll(topics);
        long lost = lostSinceLastPass.getAndSet(0);
        if (lost > 0) {
            lastPassNanos = now;
            CompletionStage<?> pass;
            try {
                pass = requestPass.apply("sends given up on (" + lost + ")");
            } catch (RuntimeException e) {
                pass = CompletableFuture.failedFuture(e);
            }
            pass.whenComplete((r, e) -> {
                if (e != null) {
                    log.warn("repair pass after lost sends failed; asked for again in {} or later error={}",
                            settings.spacing(), e.toString());
                    lostTopics.addAll(topics);
                    lostSinceLastPass.addAndGet(lost);
                    wake();
                }
            });
        }
        scheduled.set(false);
        // a loss while this step ran found it scheduled and left its repair to it
        if (lostSinceLastPass.get() > 0) {
            wake();
        }
    }

    private boolean answers() {
        Set<String> topics = Set.copyOf(lostTopics);
        try {
            return kafkaAnswers.test(topics);
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
    }
}
