package io.swale.kafka;

import io.swale.task.SwaleMetrics;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
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
 * <p>Kafka answers when every partition of every topic that lost records has a leader; the pass then waits
 * {@code passDelay}, so that what was given up just before is old enough for it to send again. Passes start at
 * least {@code spacing} apart, and one that fails (Redis away too) is asked for again. A question that has not
 * answered for {@code awayAtMost} is taken as answered once, so a broken question or a partition that never gets
 * its leader back delays the repair, and does not stop it.
 *
 * <p>A send that failed after holding its caller for {@code max.block.ms} (the client has no metadata for the
 * topic: Kafka is gone) makes its topic <em>away</em>: until Kafka answers, or {@code awayAtMost} at most,
 * {@link #kafkaAway} tells the adapters to give that topic's records up at once rather than hold their caller (an
 * API request, a listener, a slot) 10 s each. A record that expired in the producer's buffer held nobody, and
 * makes nothing away.
 *
 * <p>A record the broker refused (too large, not authorized) is only counted: sent again it would be refused
 * again, and a pass would send every pending instance's dispatch again for nothing.
 */
public final class LostSendRepair implements LostSends, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LostSendRepair.class);
    /** Passes asked for by lost sends start at least this far apart. */
    public static final Duration SPACING = Duration.ofSeconds(10);
    /** While Kafka does not answer, it is asked again this long after each failed question. */
    public static final Duration PROBE_EVERY = Duration.ofSeconds(1);
    /** The longest a topic's sends are given up unsent, and a question unanswered delays a pass. */
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
    /** The topics whose sends are given up unsent, with when that began. */
    private final Map<String, Long> awaySince = new ConcurrentHashMap<>();
    private volatile long answeredNanos;
    private volatile long lastPassNanos;
    /** When the question began failing; {@link #NOT_FAILING} while it answers. Read and written by steps only. */
    private long questionFailingSinceNanos = NOT_FAILING;
    /** The question was let go unanswered: the pass it leads to does not ask again. Steps only. */
    private boolean letGo;
    private static final long NOT_FAILING = Long.MIN_VALUE;

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

    /** Whether a record for {@code topic} should be given up without trying: Kafka was gone and has not answered. */
    @Override
    public boolean kafkaAway(String topic) {
        Long since = awaySince.get(topic);
        return since != null && System.nanoTime() - since < settings.awayAtMost().toNanos();
    }

    @Override
    public void lost(String kind, String topic, Throwable cause, boolean senderWaited) {
        boolean unsent = cause == UNSENT;
        boolean counts = unsent || unreachable.test(cause);
        metrics.sendLost(kind, unsent ? "unsent" : counts ? "unreachable" : "refused");
        if (!counts) {
            return;
        }
        lostTopics.add(topic);
        lostSinceLastPass.incrementAndGet();
        if (senderWaited && !unsent && !kafkaAway(topic)) {
            awaySince.put(topic, System.nanoTime());
            log.warn("Kafka unreachable: sends to a topic are given up unsent until it answers, {} at most kind={}"
                    + " topic={} error={}", settings.awayAtMost(), kind, topic, cause.toString());
        }
        wake();
    }

    private void wake() {
        if (!executor.isShutdown() && scheduled.compareAndSet(false, true)) {
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

    /**
     * One step on this class's thread. While a topic is away, or when the pass is due, it asks Kafka first, and
     * again every {@code probeEvery} until it answers; a pass not yet due is waited for in steps of at most
     * {@code probeEvery}, so that a topic made away meanwhile is asked about soon.
     */
    private void step() {
        try {
            long now = System.nanoTime();
            if (!awaySince.isEmpty() || (due() <= now && !letGo)) {
                Answer answer = answer(now);
                if (answer == Answer.NO) {
                    schedule(settings.probeEvery().toNanos());
                    return;
                }
                // the question may have taken seconds: the sends given up meanwhile are as young as now
                now = System.nanoTime();
                letGo = answer == Answer.GIVEN_UP;
                if (!awaySince.isEmpty()) {
                    awaySince.clear();
                    answeredNanos = now;
                    log.info("{}: sends are tried again, a repair pass follows in {} or later",
                            letGo ? "Kafka's question let go unanswered" : "Kafka answers again", settings.passDelay());
                }
            }
            long due = due();
            if (due > now) {
                schedule(Math.min(due - now, settings.probeEvery().toNanos()));
                return;
            }
            letGo = false;
            askForPass(now);
        } catch (Throwable t) {
            // an escaped throwable would leave the step flag set and no step to come: nothing would be repaired
            log.warn("lost-send repair step failed; tried again in {} error={}", settings.probeEvery(), t.toString());
            schedule(settings.probeEvery().toNanos());
        }
    }

    private long due() {
        return Math.max(lastPassNanos + settings.spacing().toNanos(), answeredNanos + settings.passDelay().toNanos());
    }

    private void askForPass(long now) {
        Set<String> topics = new HashSet<>(lostTopics);
        lostTopics.removeAll(topics);
        long lost = lostSinceLastPass.getAndSet(0);
        if (lost > 0) {
            lastPassNanos = now;
            CompletionStage<?> pass;
            try {
                pass = Objects.requireNonNull(requestPass.apply("sends given up on (" + lost + ")"));
            } catch (RuntimeException e) {
                pass = CompletableFuture.failedFuture(e);
            }
            pass.whenComplete((r, e) -> {
                // rejected: the passes' executor is closed, the service stopping, and the next start's pass repairs
                if (e != null && !(e instanceof RejectedExecutionException)) {
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
        if (lostSinceLastPass.get() > 0 || !awaySince.isEmpty()) {
            wake();
        }
    }

    /** What the question about the lost topics got: an answer, none, or none for so long that it is let go. */
    private enum Answer { YES, NO, GIVEN_UP }

    private Answer answer(long now) {
        boolean answers;
        Set<String> topics = new HashSet<>(lostTopics);
        topics.addAll(awaySince.keySet());
        try {
            answers = kafkaAnswers.test(topics);
        } catch (RuntimeException e) {
            answers = false;
        }
        if (answers) {
            questionFailingSinceNanos = NOT_FAILING;
            return Answer.YES;
        }
        if (questionFailingSinceNanos == NOT_FAILING) {
            questionFailingSinceNanos = now;
        } else if (now - questionFailingSinceNanos >= settings.awayAtMost().toNanos()) {
            log.warn("Kafka has not answered about topics={} for {}: the repair goes on unanswered", topics,
                    settings.awayAtMost());
            // the next let-go is as far away again: a cluster that stays broken costs a pass per awayAtMost
            questionFailingSinceNanos = NOT_FAILING;
            return Answer.GIVEN_UP;
        }
        return Answer.NO;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
