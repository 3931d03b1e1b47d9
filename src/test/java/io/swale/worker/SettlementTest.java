package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.swale.graph.Partition;
import io.swale.operator.Cancellation;
import io.swale.operator.OperatorResult;
import io.swale.record.NodeStatus;
import io.swale.store.TaskStore;
import io.swale.task.DeadLetters;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.JsonNodeFactory;

/** Settling an attempt while the store fails for a moment: retried while the lease holds, applied once. */
class SettlementTest {
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final TaskIdentity ID = new TaskIdentity("g", Partition.of("p"), "n", Optional.empty(), "d", 0);
    private static final Backoff NO_WAIT = new Backoff(Duration.ofMillis(1), Duration.ofMillis(1), 0);
    /** The fake store's outages, as the adapter's classifier tells them in production. */
    private static final java.util.function.Predicate<Throwable> OUTAGE = e -> java.util.stream.Stream
            .of("Failed to connect", "LOADING", "Unexpected end of stream")
            .anyMatch(p -> String.valueOf(e.getMessage()).startsWith(p));

    private final AtomicLong clock = new AtomicLong(0);
    private final FakeTaskStore store = new FakeTaskStore(clock, LEASE);
    private final RecordingMetrics metrics = new RecordingMetrics();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<DeadLetters.DeadLetter> letters = new CopyOnWriteArrayList<>();
    private final Terminations terminations = new Terminations(store, (id, status) -> events.add(status.wireName()),
            letters::add, Clock.systemUTC(), metrics);
    private final Settlement settlement = new Settlement(store, terminations, Backoff.DEFAULT, NO_WAIT, metrics, OUTAGE);
    private final LeaseKeeper keeper = new LeaseKeeper(store, null,
            new LeaseKeeper.Timing(LEASE, Duration.ofSeconds(15), Duration.ofSeconds(1)), metrics, clock::get);
    private final LeaseKeeper.Lease lease = keeper.open(ID, store.token, "gpu", 0, new Cancellation());

    private static TaskStore.Claim.Claimed claim(long attempt, long max) {
        return new TaskStore.Claim.Claimed(7, attempt, max, 0, Optional.empty(), Optional.empty(), 0, 0);
    }

    private void settle(OperatorResult result) {
        settlement.settle(ID, claim(1, 3), "gpu", result, false, System.nanoTime(), lease);
    }

    @Test
    void aFinishFailingForAMomentIsRetriedAndAppliedOnce() {
        store.failNext = 3;
        settle(new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()));

        assertThat(store.written).extracting(r -> r.status()).containsExactly(NodeStatus.SUCCEEDED);
        assertThat(events).containsExactly("succeeded");
        assertThat(metrics.count("settle-retried gpu")).isEqualTo(3);
        assertThat(metrics.count("terminated gpu succeeded")).isEqualTo(1);
        assertThat(metrics.count("attempt gpu succeeded")).isEqualTo(1);
    }

    /** Each try again says which try failed: the first failure, caught before the retry is built, is try 1. */
    @Test
    void theRetryLinesNumberTheFailedTriesFromOne() {
        Logger logger = (Logger) LoggerFactory.getLogger(Settlement.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            store.failNext = 3;
            settle(new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()));
        } finally {
            logger.detachAppender(lines);
        }

        assertThat(lines.list).extracting(e -> e.getFormattedMessage().replaceAll(".* step=(\\S+) try=(\\d+) .*", "$1 $2"))
                .containsExactly("finish 1", "finish 2", "finish 3");
        assertThat(lines.list).allSatisfy(e -> assertThat(e.getFormattedMessage())
                .startsWith("settle step failed, trying again runId=" + ID.runId() + " pool=gpu "));
    }

    /** The first try committed, its answer was lost: the retry is recognised and the event still sent, once. */
    @Test
    void aFinishWhoseAnswerWasLostIsRecognisedOnRetry() {
        store.loseNextAnswer = true;
        settle(new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()));

        assertThat(store.finishes).isEqualTo(2);
        assertThat(store.written).hasSize(1);
        assertThat(events).containsExactly("succeeded");
        assertThat(metrics.count("settle-abandoned gpu")).isZero();
    }

    @Test
    void aDeadLetterWhoseAnswerWasLostIsSentOnce() {
        store.loseNextAnswer = true;
        settle(new OperatorResult.PermanentError("bad input"));

        assertThat(store.written).extracting(r -> r.status()).containsExactly(NodeStatus.FAILED);
        assertThat(letters).hasSize(1).first().satisfies(l -> assertThat(l.pool()).isEqualTo("gpu"));
        assertThat(events).containsExactly("failed");
    }

    @Test
    void aParkIsRetriedAndScheduledOnce() {
        store.loseNextAnswer = true;
        settle(new OperatorResult.TransientError("try later"));

        assertThat(store.parks).isEqualTo(2);
        assertThat(store.state).isEqualTo("waiting");
        assertThat(store.scheduled).containsExactly(store.due);
        assertThat(metrics.count("attempt gpu retry")).isEqualTo(1);
    }

    /** Each failed call takes 5 s (a connect timeout): the lease of 60 s, less its margin, is all it may take. */
    @Test
    void aStoreDownLongerThanTheLeaseDropsTheResultAndSaysSo() {
        store.down = true;
        store.failureTakes = Duration.ofSeconds(5);
        settle(new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()));

        assertThat(store.written).isEmpty();
        assertThat(events).isEmpty();
        assertThat(metrics.count("settle-abandoned gpu")).isEqualTo(1);
        assertThat(metrics.count("attempt gpu lost")).isEqualTo(1);
        assertThat(Duration.ofNanos(clock.get())).as("gave up once the lease could have ended, not before")
                .isBetween(Duration.ofSeconds(55), Duration.ofSeconds(65));
    }

    /**
     * A failure that is neither an outage nor permanent (a script error on a corrupt field) would repeat forever
     * while the heartbeat keeps the lease: it gets a few tries, then the result is dropped for the reaper.
     */
    @Test
    void aFailureThatIsNotAnOutageIsTriedAFewTimesNotForever() {
        TaskStore broken = new FakeTaskStore(clock, LEASE) {
            @Override
            public synchronized Finish finish(io.swale.store.RunKey key, io.swale.store.RecordField field, long t,
                    io.swale.record.NodeRecord record) {
                finishes++;
                throw new IllegalStateException("ERR user_script:12: Expected value but found invalid token");
            }
        };
        Settlement s = new Settlement(broken, new Terminations(broken, (id, st) -> { }, l -> { }, Clock.systemUTC(),
                metrics), Backoff.DEFAULT, NO_WAIT, metrics, OUTAGE);
        s.settle(ID, claim(1, 3), "gpu", new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()), false, 0,
                lease);

        assertThat(((FakeTaskStore) broken).finishes).isEqualTo(Settlement.OTHER_TRIES);
        assertThat(metrics.count("settle-abandoned gpu")).isEqualTo(1);
        assertThat(metrics.count("attempt gpu lost")).isEqualTo(1);
    }

    /** A lease that may have ended (and been reaped) is not settled at all: the instance is no longer ours. */
    @Test
    void noStepIsTriedOnceTheLeaseMayHaveEnded() {
        clock.set(LEASE.toNanos());
        settle(new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()));

        assertThat(store.finishes).isZero();
        assertThat(store.written).isEmpty();
        assertThat(metrics.count("settle-abandoned gpu")).isEqualTo(1);
    }

    @Test
    void aPermanentFailureIsNotRetried() {
        TaskStore broken = new FakeTaskStore(clock, LEASE) {
            @Override
            public synchronized Finish finish(io.swale.store.RunKey key, io.swale.store.RecordField field, long t,
                    io.swale.record.NodeRecord record) {
                finishes++;
                throw new IllegalArgumentException("a record that cannot be encoded");
            }
        };
        Settlement s = new Settlement(broken, new Terminations(broken, (id, st) -> { }, l -> { }, Clock.systemUTC(),
                metrics), Backoff.DEFAULT, NO_WAIT, metrics, OUTAGE);
        assertThatThrownBy(() -> s.settle(ID, claim(1, 3), "gpu", new OperatorResult.Failed("no"), false, 0, lease))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(((FakeTaskStore) broken).finishes).isEqualTo(1);
    }

    /** Every termination a worker makes is counted under its pool, never {@code pool="unknown"}. */
    @Test
    void terminationsAreCountedUnderTheWorkersPool() {
        settle(new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()));
        FakeTaskStore cancelling = new FakeTaskStore(clock, LEASE);
        cancelling.state = "cancelling";
        Settlement s = new Settlement(cancelling, new Terminations(cancelling, (id, st) -> { }, l -> { },
                Clock.systemUTC(), metrics), Backoff.DEFAULT, NO_WAIT, metrics, OUTAGE);
        // the run was cancelled while the attempt ran: its success ends the instance cancelled
        s.settle(ID, claim(1, 3), "gpu", new OperatorResult.Succeeded(JsonNodeFactory.instance.objectNode()), false, 0,
                lease);

        assertThat(cancelling.state).isEqualTo("cancelled");
        assertThat(metrics.counted).filteredOn(l -> l.startsWith("terminated")).hasSize(2)
                .allMatch(l -> l.startsWith("terminated gpu "));
        assertThat(metrics.count("terminated gpu cancelled")).isEqualTo(1);
    }
}
