package io.swale.worker;

import io.swale.graph.Partition;
import io.swale.operator.OperatorRegistry;
import io.swale.task.DeadLetters;
import io.swale.task.TaskIdentity;
import io.swale.task.Terminations;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link AttemptRunner} with no operator, wired to a {@link FakeTaskStore}: what an attempt settles is in
 * {@link FakeTaskStore#written}, its dead letters in {@link #deadLetters}. Closed after each test.
 */
final class FakeStoreAttempts implements AutoCloseable {
    static final Duration LEASE = Duration.ofSeconds(60);
    static final TaskIdentity ID = new TaskIdentity("g", Partition.of("p"), "n", Optional.empty(), "d", 0);

    final FakeTaskStore store = new FakeTaskStore(new AtomicLong(0), LEASE);
    final RecordingMetrics metrics = new RecordingMetrics();
    final List<DeadLetters.DeadLetter> deadLetters = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final Settlement settlement = new Settlement(store, new Terminations(store, (id, status) -> { },
            deadLetters::add, Clock.systemUTC(), metrics), Backoff.DEFAULT, metrics, e -> false);
    final AttemptRunner runner = new AttemptRunner(new OperatorRegistry(List.of()),
            new LeaseKeeper(store, ticker, new LeaseKeeper.Timing(LEASE, Duration.ofSeconds(15),
                    Duration.ofSeconds(1)), metrics), settlement, Map.of(), metrics);

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
