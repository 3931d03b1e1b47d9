package io.swale.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.graph.Partition;
import io.swale.record.AdminRequest;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import io.swale.run.RunCancellation;
import io.swale.store.RequestStore;
import io.swale.store.RunStore;
import io.swale.task.SwaleMetrics;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A request's handling keeps its id held for as long as it runs, and lets go once it is done. */
class RequestsHoldTest {

    /** Holds every id for its caller, renews and lets go as told, counting. */
    static final class Held implements RequestStore {
        final AtomicInteger renewals = new AtomicInteger();
        final AtomicInteger releases = new AtomicInteger();

        @Override
        public Optional<RequestRecord> get(String id) {
            return Optional.empty();
        }

        @Override
        public boolean reserve(String id, AdminRequest request) {
            return true;
        }

        @Override
        public Hold hold(String id, AdminRequest request, Duration maxHandling) {
            return new Hold.Held("the call's token");
        }

        @Override
        public boolean renew(String id, Hold.Held held, Duration maxHandling) {
            renewals.incrementAndGet();
            return true;
        }

        @Override
        public void release(String id, Hold.Held held) {
            releases.incrementAndGet();
        }

        @Override
        public boolean putIfAbsent(RequestRecord record) {
            return true;
        }
    }

    @Test
    void aHandlingThatOutlastsARenewalKeepsItsHoldAndLetsGoWhenDone() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        // the cancel reads its run first: that read is where this handling is slow
        RunStore runs = (RunStore) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {RunStore.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("read")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    reading.countDown();
                    assertThat(go.await(30, TimeUnit.SECONDS)).isTrue();
                    return Optional.empty();
                });
        Held store = new Held();
        // a cancel needs neither starts nor reruns, nor the definitions, tasks or events of a run it finds absent
        RunCancellation cancellation = new RunCancellation(null, runs, null, Clock.systemUTC(), SwaleMetrics.NONE, null);
        HoldRenewal renewal = new HoldRenewal(store, Duration.ofSeconds(60), Duration.ofMillis(20));
        try (Requests requests = new Requests(null, null, cancellation, store, runs, Clock.systemUTC(), renewal)) {
            CompletableFuture<RequestRecord> handled = CompletableFuture.supplyAsync(() -> requests.handle(
                    Optional.of(new RequestId("c1")), new AdminRequest.Cancel("g", Partition.of("p"))));
            assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();

            await().until(() -> store.renewals.get() >= 2);
            assertThat(store.releases).hasValue(0);

            go.countDown();
            assertThat(handled.get(10, TimeUnit.SECONDS).outcome()).isInstanceOf(RequestOutcome.Refused.class);
            assertThat(store.releases).hasValue(1);
        }
    }
}
