package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.Partition;
import io.swale.record.AdminRequest;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import io.swale.record.RunState;
import io.swale.request.RequestId;
import io.swale.request.Requests;
import io.swale.store.RequestStore;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisRequestStore;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A cancel request whose call fails after the cancel committed (spec §10: a retry under the same id answers what
 * the request did). Here Redis stops answering writes once the run record is cancelled, and the settle's own reply
 * is lost. Was: the request record was a second write after the cancel; when it failed, the client's retry found
 * the run cancelled and was refused as "not active".
 */
class CancelRequestOnceIT {
    @Test
    void aCancelWhoseReplyWasLostIsAnsweredCancelledAndSoIsItsRetry() throws Exception {
        AtomicBoolean settled = new AtomicBoolean();
        try (RunHarness h = new RunHarness(r -> RunHarness.after(RunStore.class, r, (method, args) -> {
            if (method.equals("compareAndSettle")) {
                settled.set(true);
            }
        }), t -> RunHarness.after(TaskStore.class, t, (method, args) -> {
            if (method.equals("compareAndSettleRun") && !settled.getAndSet(true)) {
                throw new JedisConnectionException("Connection reset");
            }
        }))) {
            String g = RunHarness.graphName("cancelonce");
            String hash = h.chain(g);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            RequestStore failingOnceCancelled = RunHarness.before(RequestStore.class,
                    new RedisRequestStore(h.pool, h.prefix), (method, args) -> {
                        if (method.equals("putIfAbsent") && settled.get()) {
                            throw new JedisConnectionException("Connection reset");
                        }
                    });
            Requests requests = new Requests(h.graphRuns, h.reruns, h.cancellation, failingOnceCancelled, h.runs,
                    h.clock);
            RequestId id = new RequestId("cancel-once");
            AdminRequest cancel = new AdminRequest.Cancel(g, Partition.of("p"));

            RequestRecord first = requests.handle(Optional.of(id), cancel);
            RequestRecord again = requests.handle(Optional.of(id), cancel);

            assertThat(settled).isTrue();
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.CANCELLED);
            assertThat(first.outcome()).isEqualTo(new RequestOutcome.Cancelled());
            assertThat(again.outcome()).isEqualTo(new RequestOutcome.Cancelled());
            assertThat(again.replayed()).isTrue();
        }
    }
}
