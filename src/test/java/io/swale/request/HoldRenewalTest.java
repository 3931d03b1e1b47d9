package io.swale.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.swale.record.AdminRequest;
import io.swale.record.RequestRecord;
import io.swale.store.RequestStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HoldRenewalTest {
    static final RequestId ID = new RequestId("r1");
    static final RequestStore.Hold.Held HELD = new RequestStore.Hold.Held("token");

    /** Renews as told: answers what {@code answers} gives, in turn, and records each call. */
    static final class Renewed implements RequestStore {
        final List<String> renewals = new CopyOnWriteArrayList<>();
        final AtomicInteger calls = new AtomicInteger();
        final java.util.function.IntFunction<Boolean> answers;

        Renewed(java.util.function.IntFunction<Boolean> answers) {
            this.answers = answers;
        }

        @Override
        public boolean renew(String id, Hold.Held held, Duration maxHandling) {
            renewals.add(id + " " + held.token() + " " + maxHandling.toMillis());
            return answers.apply(calls.incrementAndGet());
        }

        @Override
        public Optional<RequestRecord> get(String id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean reserve(String id, AdminRequest request) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Hold hold(String id, AdminRequest request, Duration maxHandling) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void release(String id, Hold.Held held) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean putIfAbsent(RequestRecord record) {
            throw new UnsupportedOperationException();
        }
    }

    private HoldRenewal renewal;

    @AfterEach
    void close() {
        if (renewal != null) {
            renewal.close();
        }
    }

    @Test
    void aHoldIsRenewedForItsWholeTimeUntilItsCallIsDone() {
        Renewed store = new Renewed(n -> true);
        renewal = new HoldRenewal(store, Duration.ofSeconds(60), Duration.ofMillis(20));
        HoldRenewal.Kept kept = renewal.keep(ID, HELD);
        await().until(() -> store.renewals.size() >= 3);
        assertThat(store.renewals).allMatch("r1 token 60000"::equals);

        kept.close();
        assertThat(kept.renewing()).isFalse();
    }

    @Test
    void aHoldFoundGoneIsNoLongerRenewed() {
        Renewed store = new Renewed(n -> n < 2);
        renewal = new HoldRenewal(store, Duration.ofSeconds(60), Duration.ofMillis(20));
        HoldRenewal.Kept kept = renewal.keep(ID, HELD);
        await().until(() -> !kept.renewing());
        // the renewal that found it gone was the last: another call may hold the id now
        assertThat(store.calls.get()).isEqualTo(2);
    }

    @Test
    void aRenewalThatFailsIsTriedAgainAtTheNext() {
        Renewed store = new Renewed(n -> {
            if (n == 1) {
                throw new IllegalStateException("Redis unreachable");
            }
            return true;
        });
        renewal = new HoldRenewal(store, Duration.ofSeconds(60), Duration.ofMillis(20));
        HoldRenewal.Kept kept = renewal.keep(ID, HELD);
        await().until(() -> store.calls.get() >= 3);
        assertThat(kept.renewing()).isTrue();
        kept.close();
    }

    @Test
    void aRenewalMustComeBeforeTheHoldRunsOut() {
        Renewed store = new Renewed(n -> true);
        assertThatThrownBy(() -> new HoldRenewal(store, Duration.ofSeconds(60), Duration.ofSeconds(60)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more often");
        assertThatThrownBy(() -> new HoldRenewal(store, Duration.ofSeconds(60), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
