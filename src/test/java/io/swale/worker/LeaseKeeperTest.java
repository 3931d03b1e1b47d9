package io.swale.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.operator.Cancellation;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The heartbeat on a fake clock, one tick per cancel poll (1 s), against a store that is down for a while: a
 * 60 s lease, extended every 15 s. The store's own lease is what the reaper looks at.
 */
class LeaseKeeperTest {
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final TaskIdentity ID = new TaskIdentity("g", Partition.of("p"), "n", Optional.empty(), "d", 0);

    private final AtomicLong clock = new AtomicLong(0);
    private final FakeTaskStore store = new FakeTaskStore(clock, LEASE);
    private final RecordingMetrics metrics = new RecordingMetrics();
    private final LeaseKeeper keeper = new LeaseKeeper(store, null,
            new LeaseKeeper.Timing(LEASE, Duration.ofSeconds(15), Duration.ofSeconds(1)), metrics, clock::get);
    private final Cancellation cancellation = new Cancellation();
    private final LeaseKeeper.Lease lease = keeper.open(ID, store.token, "gpu", 0, cancellation);

    /** Ticks once a second from 1 s to {@code untilS}, with the store down in [downFromS, upAtS). */
    private long runWithOutage(long downFromS, long upAtS, long untilS) {
        long lostAt = -1;
        for (long s = 1; s <= untilS; s++) {
            clock.set(Duration.ofSeconds(s).toNanos());
            store.down = s >= downFromS && s < upAtS;
            lease.tick();
            if (lostAt < 0 && cancellation.isCancelled()) {
                lostAt = s;
            }
            if (!cancellation.isCancelled()) {
                assertThat(store.leaseHolds()).as("at %d s the store's lease still holds", s).isTrue();
                assertThat(store.leaseUntil).as("what the worker counts on holds in the store too")
                        .isGreaterThanOrEqualTo(lease.heldUntilNanos());
            }
        }
        return lostAt;
    }

    @Test
    void anOutageOf40SecondsKeepsA60SecondLease() {
        // the worst moment: just before an extension is due, so the last one was almost a heartbeat ago
        long lostAt = runWithOutage(14, 54, 180);

        assertThat(lostAt).as("never stopped").isEqualTo(-1);
        assertThat(cancellation.isCancelled()).isFalse();
        assertThat(metrics.count("heartbeat-failed gpu")).isEqualTo(40);
        assertThat(metrics.count("lease-lost gpu")).isZero();
        assertThat(lease.holds()).isTrue();
        // extended at 54 s, as soon as the store answered, then every 15 s: last at 174 s
        assertThat(store.leaseUntil).isEqualTo(Duration.ofSeconds(174 + 60).toNanos());
    }

    @Test
    void anyOutageShorterThanLeaseLessHeartbeatKeepsTheLeaseWhereverItFalls() {
        for (long from = 1; from <= 20; from++) {
            LeaseKeeperTest fresh = new LeaseKeeperTest();
            assertThat(fresh.runWithOutage(from, from + 44, 150)).as("44 s outage from %d s", from).isEqualTo(-1);
        }
    }

    @Test
    void anOutageOfLeaseLessHeartbeatAtTheWorstMomentLosesIt() {
        assertThat(runWithOutage(15, 60, 120)).isEqualTo(60);
    }

    @Test
    void anOutageLongerThanTheLeaseStopsTheAttemptAsALeaseNotExtendedNamingTheCause() {
        long lostAt = runWithOutage(14, 84, 120);

        // last extension answered: the claim at 0 s, so the lease surely held until 60 s and no longer
        assertThat(lostAt).isEqualTo(60);
        assertThat(cancellation.isCancelledFor(CancelReason.LEASE_NOT_EXTENDED)).isTrue();
        assertThat(lease.lastFailure()).contains("Failed to connect");
        assertThat(metrics.count("lease-lost gpu")).isEqualTo(1);
        assertThat(lease.holds()).isFalse();
        int calls = store.heartbeats;
        clock.set(Duration.ofSeconds(200).toNanos());
        lease.tick();
        assertThat(store.heartbeats).as("a lost lease is not extended again").isEqualTo(calls);
    }

    @Test
    void aLeaseThatRanOutWithoutAFailedExtensionIsAClaimLost() {
        // the ticker did not run for a lease (a paused process, say): nothing failed, so nothing can be named
        clock.set(Duration.ofSeconds(61).toNanos());
        lease.tick();

        assertThat(cancellation.isCancelledFor(CancelReason.CLAIM_LOST)).isTrue();
        assertThat(lease.lastFailure()).isEmpty();
        assertThat(store.heartbeats).isZero();
    }

    @Test
    void theTimeToSettleAfterTheLeaseRanOutIsOneHeartbeat() {
        runWithOutage(14, 84, 60);
        SettleWindow window = lease.afterExpiry();

        clock.set(Duration.ofSeconds(60 + 14).toNanos());
        assertThat(window.open()).isTrue();
        assertThat(window.leftMs()).isEqualTo(1_000);
        clock.set(Duration.ofSeconds(60 + 15).toNanos());
        assertThat(window.open()).isFalse();
        assertThat(lease.open()).as("the lease itself stays closed").isFalse();
    }

    @Test
    void theStoresAnswersStopTheAttempt() {
        clock.set(Duration.ofSeconds(1).toNanos());
        store.state = "cancelling";
        lease.tick();
        assertThat(cancellation.isCancelledFor(CancelReason.RUN_CANCELLED)).isTrue();

        Cancellation other = new Cancellation();
        LeaseKeeper.Lease taken = keeper.open(ID, store.token + 1, "gpu", 0, other);
        taken.tick();
        assertThat(other.isCancelledFor(CancelReason.CLAIM_LOST)).isTrue();
    }

    @Test
    void aHeartbeatNotShorterThanTheLeaseIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new LeaseKeeper.Timing(LEASE, LEASE, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
