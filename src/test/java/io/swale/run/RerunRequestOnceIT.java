package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Partition;
import io.swale.record.AdminRequest;
import io.swale.record.NodeStatus;
import io.swale.record.RequestOutcome;
import io.swale.record.RequestRecord;
import io.swale.record.RunState;
import io.swale.request.RequestId;
import io.swale.request.Requests;
import io.swale.store.RunKey;
import io.swale.store.TaskStore;
import io.swale.store.redis.RedisRequestStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * A rerun request whose submission failed after its expectation committed (spec §10: applied at most once). The
 * reconciler reruns the node; the client's retry under the same id answers that rerun. Was: nothing was recorded
 * with the expectation, so the retry reran the node and its scope a second time.
 */
class RerunRequestOnceIT {
    @Test
    void aRerunWhoseSubmissionFailedIsAnsweredOnceWhenRetried() throws Exception {
        AtomicBoolean failSubmit = new AtomicBoolean();
        try (RunHarness h = new RunHarness(UnaryOperator.identity(), t -> RunHarness.before(TaskStore.class, t,
                (method, args) -> {
                    if (method.equals("submit") && failSubmit.getAndSet(false)) {
                        throw new JedisConnectionException("Connection reset");
                    }
                }))) {
            String g = RunHarness.graphName("rerunonce");
            String hash = h.chain(g);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            for (String node : List.of("a", "b")) {
                h.finish(key, node, 0, NodeStatus.SUCCEEDED, hash);
                h.graphRuns.onTaskTerminated(key, node);
            }
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.COMPLETE);
            Requests requests = new Requests(h.graphRuns, h.reruns, h.cancellation,
                    new RedisRequestStore(h.pool, h.prefix), h.runs, h.clock);
            RequestId id = new RequestId("rerun-once");
            AdminRequest rerun = new AdminRequest.Rerun(g, Partition.of("p"), "a");

            failSubmit.set(true);
            assertThatThrownBy(() -> requests.handle(Optional.of(id), rerun))
                    .isInstanceOf(JedisConnectionException.class);
            // the expectation stands: the reconciler submits a-r1, and the run completes again
            h.reconciler(60_000).pass();
            for (String node : List.of("a", "b")) {
                h.finish(key, node, 1, NodeStatus.SUCCEEDED, hash);
                h.graphRuns.onTaskTerminated(key, node);
            }
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.COMPLETE);

            RequestRecord again = requests.handle(Optional.of(id), rerun);

            assertThat(again.outcome()).isEqualTo(new RequestOutcome.Rerun(key.runId("a", 1)));
            assertThat(h.runs.read(key).orElseThrow().instances()).doesNotContainKey(key.runId("a", 2));
        }
    }
}
