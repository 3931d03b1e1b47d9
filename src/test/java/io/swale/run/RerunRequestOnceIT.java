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
    /** A harness whose task store fails the next submission once {@code failSubmit} is set, as a lost Redis would. */
    private static RunHarness failingNextSubmitWhen(AtomicBoolean failSubmit) throws java.io.IOException {
        return new RunHarness(UnaryOperator.identity(), t -> RunHarness.before(TaskStore.class, t, (method, args) -> {
            if (method.equals("submit") && failSubmit.getAndSet(false)) {
                throw new JedisConnectionException("Connection reset");
            }
        }));
    }

    @Test
    void aRerunWhoseSubmissionFailedIsAnsweredOnceWhenRetried() throws Exception {
        AtomicBoolean failSubmit = new AtomicBoolean();
        try (RunHarness h = failingNextSubmitWhen(failSubmit)) {
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
    /**
     * A failed node's rerun adds no expectation (spec §7.8), so its request record commits with the submission only:
     * when that fails, nothing is recorded, the reconciler settles the run failed again, and the client's retry
     * reruns the node. Was: the record committed with the put that reactivated the run, and the retry was answered
     * a-r1 "submitted", which never ran.
     */
    @Test
    void aFailedNodesRerunWhoseSubmissionFailedIsAppliedByItsRetry() throws Exception {
        AtomicBoolean failSubmit = new AtomicBoolean();
        try (RunHarness h = failingNextSubmitWhen(failSubmit)) {
            String g = RunHarness.graphName("rerunfailed");
            RunKey key = h.runWithFailedRoot(g);
            h.graphRuns.onTaskTerminated(key, "a");
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.FAILED);
            Requests requests = new Requests(h.graphRuns, h.reruns, h.cancellation,
                    new RedisRequestStore(h.pool, h.prefix), h.runs, h.clock);
            RequestId id = new RequestId("rerun-failed");
            AdminRequest rerun = new AdminRequest.Rerun(g, Partition.of("p"), "a");

            failSubmit.set(true);
            assertThatThrownBy(() -> requests.handle(Optional.of(id), rerun))
                    .isInstanceOf(JedisConnectionException.class);
            h.reconciler(60_000).pass();
            assertThat(requests.find(id)).isEmpty();
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.FAILED);

            RequestRecord again = requests.handle(Optional.of(id), rerun);

            assertThat(again.outcome()).isEqualTo(new RequestOutcome.Rerun(key.runId("a", 1)));
            assertThat(again.replayed()).isFalse();
            assertThat(h.runs.read(key).orElseThrow().instances()).containsKey(key.runId("a", 1));
            assertThat(h.runs.read(key).orElseThrow().run().expectedReruns()).doesNotContainKey("a");
        }
    }

    /**
     * A rerun of a node whose next instance is still active (being cancelled) is refused naming it (spec §7.8 step
     * 7, §10). Was: the put that reactivated the cancelled run committed the rerun as submitted, and the refusal
     * found that record in its place.
     */
    @Test
    void aRerunOfANodeWhoseNextInstanceIsStillActiveIsRecordedRefused() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("reruncancelling");
            String hash = h.chain(g);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            h.finish(key, "a", 0, NodeStatus.FAILED, hash);
            h.graphRuns.onTaskTerminated(key, "a");
            Requests requests = new Requests(h.graphRuns, h.reruns, h.cancellation,
                    new RedisRequestStore(h.pool, h.prefix), h.runs, h.clock);
            AdminRequest rerun = new AdminRequest.Rerun(g, Partition.of("p"), "a");
            assertThat(requests.handle(Optional.of(new RequestId("first")), rerun).outcome())
                    .isEqualTo(new RequestOutcome.Rerun(key.runId("a", 1)));
            // a-r1 is claimed and running when the run is cancelled: it stays active until its worker stops it
            assertThat(h.tasks.claim(key, key.runId("a", 1), 60_000, "w")).isInstanceOf(TaskStore.Claim.Claimed.class);
            assertThat(h.cancellation.cancel(g, Partition.of("p"))).isTrue();
            assertThat(h.runs.read(key).orElseThrow().instances()).containsKey(key.runId("a", 1));

            RequestRecord again = requests.handle(Optional.of(new RequestId("second")), rerun);

            assertThat(again.outcome()).isInstanceOf(RequestOutcome.Refused.class);
            assertThat(((RequestOutcome.Refused) again.outcome()).reason()).contains(key.runId("a", 1));
            assertThat(requests.find(new RequestId("second")).orElseThrow().outcome()).isEqualTo(again.outcome());
        }
    }
}
