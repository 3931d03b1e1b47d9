package io.swale.config.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.swale.config.redis.FailoverDetector.Failover;
import io.swale.task.ReconcilePass;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The pass after a failover when the clients have not yet followed the new primary: taking the lock and the
 * pass are tried again, and a lock another replica holds means no pass here (CI failure of 1a98039, where the
 * watch saw the promoted replica before ShedLock's pool did and the one pass was lost).
 */
class FailoverReconcileTest {
    private static final Failover FAILOVER = new Failover(PrimarySnapshot.single("a:1", "r1"),
            PrimarySnapshot.single("b:2", "r2"), List.of("all: a:1 -> b:2"));
    private static final ReconcilePass PASS = new ReconcilePass(3, 1, 0, 0, 0, 0, 0, 0);

    /** Throws for its first {@code failures} locks, then grants each lock it is asked for, or none if taken. */
    private static final class ScriptedLocks implements LockProvider {
        final AtomicInteger asked = new AtomicInteger();
        final AtomicInteger released = new AtomicInteger();
        final int failures;
        final boolean takenElsewhere;

        ScriptedLocks(int failures, boolean takenElsewhere) {
            this.failures = failures;
            this.takenElsewhere = takenElsewhere;
        }

        @Override
        public Optional<SimpleLock> lock(LockConfiguration config) {
            if (asked.incrementAndGet() <= failures) {
                throw new JedisConnectionException("Cannot get Jedis connection");
            }
            return takenElsewhere ? Optional.empty() : Optional.of(released::incrementAndGet);
        }
    }

    /** Fails its first {@code failures} calls as the old primary's pool would. */
    private static Supplier<ReconcilePass> passFailing(int failures, AtomicInteger calls) {
        return () -> {
            if (calls.incrementAndGet() <= failures) {
                throw new JedisConnectionException("Unexpected end of stream.");
            }
            return PASS;
        };
    }

    private static double count(SimpleMeterRegistry meters, String name) {
        return meters.get(name).counter().count();
    }

    private static FailoverReconcile reconcile(ScriptedLocks locks, Supplier<ReconcilePass> pass,
            SimpleMeterRegistry meters) {
        return new FailoverReconcile("sentinel", pass, new DefaultLockingTaskExecutor(locks), () -> true, meters,
                FailoverReconcile.retry(5, Duration.ofMillis(1), Duration.ofMillis(2)));
    }

    @Test
    void theLockAndThePassAreTriedAgainUntilTheClientsFollow() {
        var meters = new SimpleMeterRegistry();
        var locks = new ScriptedLocks(2, false);
        var calls = new AtomicInteger();

        reconcile(locks, passFailing(2, calls), meters).accept(FAILOVER);

        assertThat(locks.asked).hasValue(3);
        assertThat(calls).hasValue(3);
        assertThat(locks.released).as("the lock is handed back once, after the pass").hasValue(1);
        assertThat(count(meters, FailoverReconcile.FAILOVERS)).isEqualTo(1.0);
        assertThat(count(meters, FailoverReconcile.FAILOVER_PASSES)).isEqualTo(1.0);
    }

    @Test
    void aPassThatNeverSucceedsGivesUpWithoutTakingTheLockAgain() {
        var meters = new SimpleMeterRegistry();
        var locks = new ScriptedLocks(0, false);
        var calls = new AtomicInteger();

        reconcile(locks, passFailing(Integer.MAX_VALUE, calls), meters).accept(FAILOVER);

        assertThat(calls).hasValue(5);
        assertThat(locks.asked).hasValue(1);
        assertThat(locks.released).hasValue(1);
        assertThat(count(meters, FailoverReconcile.FAILOVER_PASSES)).isZero();
    }

    @Test
    void aLockAnotherReplicaHoldsMeansNoPassHereAndNoRetry() {
        var meters = new SimpleMeterRegistry();
        var locks = new ScriptedLocks(0, true);
        var calls = new AtomicInteger();

        reconcile(locks, passFailing(0, calls), meters).accept(FAILOVER);

        assertThat(locks.asked).hasValue(1);
        assertThat(calls).hasValue(0);
        assertThat(count(meters, FailoverReconcile.FAILOVERS)).isEqualTo(1.0);
        assertThat(count(meters, FailoverReconcile.FAILOVER_PASSES)).isZero();
    }

    @Test
    void aReplicaThatIsNoSchedulerCountsTheFailoverAndRunsNoPass() {
        var meters = new SimpleMeterRegistry();
        var locks = new ScriptedLocks(0, false);
        var calls = new AtomicInteger();
        var reconcile = new FailoverReconcile("sentinel", passFailing(0, calls), new DefaultLockingTaskExecutor(locks),
                () -> false, meters, FailoverReconcile.DEFAULT_RETRY);

        reconcile.accept(FAILOVER);

        assertThat(locks.asked).hasValue(0);
        assertThat(count(meters, FailoverReconcile.FAILOVERS)).isEqualTo(1.0);
        assertThat(count(meters, FailoverReconcile.FAILOVER_PASSES)).isZero();
    }
}
