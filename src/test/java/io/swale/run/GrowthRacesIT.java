package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.store.InstanceStatus;
import io.swale.store.RecordField;
import io.swale.store.RunKey;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import io.swale.store.TaskStore;
import io.swale.task.GrowthPlanner;
import io.swale.task.TaskIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Declared growth (docs/dynamic-graphs.md §8) under several scheduler replicas, redelivered and lost events, and
 * a worker that dies holding a grown node, on a real redis-server (issue 16, scope 4). Kafka is the harness's
 * recording fake: what matters is what Redis and the effective graph let through.
 */
class GrowthRacesIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** a → (b, c): two grown leaves that both gate the declaring node's downstream. */
    private static final String GROW = """
            {"swale": {"grow": {"node": [
              {"name": "a", "operator": "noop", "retries": 1},
              {"name": "b", "after": ["a"], "operator": "noop"},
              {"name": "c", "after": ["a"], "operator": "noop"}]}}}""";

    private static String publish(RunHarness h, String graph) {
        return h.publish("""
                [graph]
                name = "%s"
                [[node]]
                name = "start"
                operator = "noop"
                [[node]]
                name = "decide"
                after = ["start"]
                operator = "noop"
                [[node]]
                name = "report"
                after = ["decide"]
                operator = "noop"
                """.formatted(graph));
    }

    /** A started run whose `start` ended with {@code startOutput} and whose `decide` grew {@link #GROW}, both handled. */
    private static RunKey startedAndGrown(RunHarness h, String g, String hash, String startOutput) {
        return startedAndGrown(h, g, hash, startOutput, GROW);
    }

    /** As above, `decide` ending with {@code decideOutput}. */
    private static RunKey startedAndGrown(RunHarness h, String g, String hash, String startOutput,
            String decideOutput) {
        RunKey key = h.key(g);
        assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
        finish(h, key, "start", 0, hash, startOutput);
        h.graphRuns.onTaskTerminated(key, "start");
        finish(h, key, "decide", 0, hash, decideOutput);
        h.graphRuns.onTaskTerminated(key, "decide");
        return key;
    }

    /** Claims and ends one instance as a worker would, with the growth its output declares checked and stored. */
    private static void finish(RunHarness h, RunKey key, String node, long rerun, String hash, String output) {
        String runId = key.runId(node, rerun);
        TaskStore.Claim claim = h.tasks.claim(key, runId, 60_000, "w");
        assertThat(claim).as(runId).isInstanceOf(TaskStore.Claim.Claimed.class);
        Optional<JsonNode> out = Optional.ofNullable(output).map(JSON::readTree);
        Optional<String> growth = out.map(o -> new DeclaredGrowth(h.catalog, h.runs, h.pools)
                .plan(new TaskIdentity(key.graph(), key.partition(), node, Optional.empty(), hash, rerun), o))
                .flatMap(p -> p instanceof GrowthPlanner.Plan.Grow g ? Optional.of(g.stored()) : Optional.empty());
        NodeRecord record = new NodeRecord(NodeStatus.SUCCEEDED, runId, hash, rerun, h.clock.millis(), out, false,
                Optional.empty());
        assertThat(h.tasks.finish(key, new RecordField(node, Optional.empty()),
                ((TaskStore.Claim.Claimed) claim).token(), record, growth)).isEqualTo(TaskStore.Finish.OK);
    }

    /**
     * A grown node whose {@code after} names a node of another growth, and a rerun that takes that growth out: the
     * node keeps the name and is blocked, not a root that runs at once, until the rerun's new record brings the
     * name back; then it runs after it. Was: it lost the upstream and was submitted by the next pass.
     */
    @Test
    void aGrownNodeAfterAnotherGrowthsNodeIsBlockedWhileARerunHasThatGrowthOut() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("crossgrowth");
            String hash = h.publish("""
                    [graph]
                    name = "%s"
                    [[node]]
                    name = "start"
                    operator = "noop"
                    [[node]]
                    name = "decide"
                    after = ["start"]
                    operator = "noop"
                    [[node]]
                    name = "other"
                    after = ["start"]
                    operator = "noop"
                    """.formatted(g));
            String growY = """
                    {"swale": {"grow": {"node": [{"name": "y", "operator": "noop"}]}}}""";
            RunKey key = startedAndGrown(h, g, hash, null, growY);
            finish(h, key, "other", 0, hash, """
                    {"swale": {"grow": {"node": [{"name": "x", "after": ["y"], "operator": "noop"}]}}}""");
            h.graphRuns.onTaskTerminated(key, "other");
            assertThat(status(h, key, "y")).isEqualTo(InstanceStatus.PENDING);

            assertThat(h.reruns.rerun(g, key.partition(), "decide")).isInstanceOf(RerunOutcome.Submitted.class);
            h.reconciler(60_000).pass();
            RunView view = h.runs.read(key).orElseThrow();
            var graph = RunGraphs.of(h.catalog.get(hash), view);
            assertThat(graph.missingUpstreams("x")).containsExactly("y");
            assertThat(view.instances()).as("x is not submitted without y").doesNotContainKey(key.runId("x", 0));
            assertThat(view.run().state()).isEqualTo(RunState.ACTIVE);

            finish(h, key, "decide", 1, hash, growY);
            h.graphRuns.onTaskTerminated(key, "decide");
            assertThat(h.runs.read(key).orElseThrow().instances()).doesNotContainKey(key.runId("x", 0));
            assertThat(h.runs.read(key).orElseThrow().instances().get(key.runId("y", 1)).status()).as("y runs anew")
                    .isEqualTo(InstanceStatus.PENDING);
            finish(h, key, "y", 1, hash, null);
            h.graphRuns.onTaskTerminated(key, "y");
            assertThat(status(h, key, "x")).isEqualTo(InstanceStatus.PENDING);
            finish(h, key, "x", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "x");
            assertThat(h.runs.read(key).orElseThrow().run().state()).isEqualTo(RunState.COMPLETE);
        }
    }

    /**
     * A rerun that replaces a growth cancels the grown nodes' instances after its put: when that cancel does not
     * happen (it failed here; the scheduler may die between the two), the reconciler cancels them. Was: nothing
     * did, and a pending one was dispatched again for ever.
     */
    @Test
    void aGrownInstanceThatARerunLeftActiveIsCancelledByTheReconciler() throws Exception {
        AtomicBoolean failCancel = new AtomicBoolean();
        try (RunHarness h = cancelFailingOnce(failCancel)) {
            String g = RunHarness.graphName("orphan");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            growAndLoseTheCancelOfItsReplacement(h, failCancel, g, hash);

            assertThat(h.reconciler(60_000).pass().cancelled()).isEqualTo(1);

            assertThat(status(h, key, "a")).isEqualTo(InstanceStatus.CANCELLED);
            assertThat(h.runs.read(key).orElseThrow().instances().get(key.runId("decide", 1)).status())
                    .as("the rerun goes on").isEqualTo(InstanceStatus.PENDING);
        }
    }

    /**
     * The same lost cancel, and then the rerun's attempt declares the same growth again before any reconciler pass:
     * the grown node is in the graph once more, but its instance from before the rerun is obsolete. The worker's
     * lease gate does not find its node, and the reconciler cancels it, so that the node runs anew. Was: the old
     * instance stood for the node and ran once on the replaced growth's inputs.
     */
    @Test
    void anObsoleteGrownInstanceDeclaredAgainByTheRerunIsNotRunButReplaced() throws Exception {
        AtomicBoolean failCancel = new AtomicBoolean();
        try (RunHarness h = cancelFailingOnce(failCancel)) {
            String g = RunHarness.graphName("redeclared");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            growAndLoseTheCancelOfItsReplacement(h, failCancel, g, hash);

            // the rerun asked again goes on; its attempt declares the same growth
            h.reruns.rerun(g, key.partition(), "decide");
            finish(h, key, "decide", 1, hash, GROW);
            h.graphRuns.onTaskTerminated(key, "decide");
            RunView view = h.runs.read(key).orElseThrow();
            assertThat(RunGraphs.of(h.catalog.get(hash), view).hasNode("a")).isTrue();
            assertThat(status(h, key, "a")).as("the old instance, still active").isEqualTo(InstanceStatus.PENDING);
            assertThat(RunGraphs.grownNodeFor(h.catalog.get(hash), view, "a", 0))
                    .as("what the worker's lease gate finds for the old instance: nothing, so it is refused").isEmpty();
            assertThat(RunGraphs.grownNodeFor(h.catalog.get(hash), view, "a", 1)).isPresent();

            assertThat(h.reconciler(60_000).pass().cancelled()).isEqualTo(1);
            assertThat(status(h, key, "a")).isEqualTo(InstanceStatus.CANCELLED);
            h.reconciler(60_000).pass();
            assertThat(h.runs.read(key).orElseThrow().instances().get(key.runId("a", 1)))
                    .as("the node declared again runs anew").isNotNull()
                    .extracting(TaskInstance::status).isEqualTo(InstanceStatus.PENDING);
        }
    }

    /**
     * The same lost cancel, with a node grown by a grown node (nested): its growth's declaring node is out of the
     * graph too, and the rerun expects a new record of it, so that growth can never count again. The reconciler
     * cancels the nested node with the others. Was: a growth under a declaring node out of the graph was taken
     * for one that may come back, and the nested node's instance stayed pending for good.
     */
    @Test
    void aNestedGrownInstanceThatARerunLeftActiveIsCancelledByTheReconciler() throws Exception {
        AtomicBoolean failCancel = new AtomicBoolean();
        try (RunHarness h = cancelFailingOnce(failCancel)) {
            String g = RunHarness.graphName("nestedorphan");
            String hash = publish(h, g);
            RunKey key = startedAndGrown(h, g, hash, "{}");
            finish(h, key, "a", 0, hash, """
                    {"swale": {"grow": {"node": [{"name": "n", "operator": "noop"}]}}}""");
            h.graphRuns.onTaskTerminated(key, "a");
            // b and c wait for n, the grown leaf of a's growth
            assertThat(status(h, key, "n")).isEqualTo(InstanceStatus.PENDING);
            failCancel.set(true);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> h.reruns.rerun(g, key.partition(), "decide"))
                    .isInstanceOf(redis.clients.jedis.exceptions.JedisConnectionException.class);
            assertThat(status(h, key, "n")).isEqualTo(InstanceStatus.PENDING);

            assertThat(h.reconciler(60_000).pass().cancelled()).isEqualTo(1);
            assertThat(status(h, key, "n")).isEqualTo(InstanceStatus.CANCELLED);
        }
    }

    /**
     * The same lost cancel with a grown mapped node, and the rerun's attempt declares it again: the old generation's
     * items are obsolete (the rerun raised the node's floor past them), and the reconciler cancels them. Was: only a
     * plain grown node's old instance was taken for superseded, and the old items ran on the replaced inputs.
     */
    @Test
    void obsoleteItemsOfAGrownMappedNodeDeclaredAgainAreCancelledByTheReconciler() throws Exception {
        AtomicBoolean failCancel = new AtomicBoolean();
        try (RunHarness h = cancelFailingOnce(failCancel)) {
            String g = RunHarness.graphName("itemorphan");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            String grow = """
                    {"items": [1, 2], "swale": {"grow": {"node": [
                      {"name": "m", "operator": "noop", "map": "{{ upstream.decide.items }}"}]}}}""";
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            finish(h, key, "start", 0, hash, "{}");
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "decide", 0, hash, grow);
            h.graphRuns.onTaskTerminated(key, "decide");
            assertThat(view(h, key).instances()).containsKeys(key.runId("m[0]", 0), key.runId("m[1]", 0));
            failCancel.set(true);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> h.reruns.rerun(g, key.partition(), "decide"))
                    .isInstanceOf(redis.clients.jedis.exceptions.JedisConnectionException.class);
            h.reruns.rerun(g, key.partition(), "decide");
            finish(h, key, "decide", 1, hash, grow);
            h.graphRuns.onTaskTerminated(key, "decide");
            RunView declaredAgain = view(h, key);
            assertThat(RunGraphs.of(h.catalog.get(hash), declaredAgain).hasNode("m")).isTrue();
            for (int i = 0; i < 2; i++) {
                assertThat(declaredAgain.instances().get(key.runId("m[" + i + "]", 0)).status())
                        .as("an old item, its cancel lost").isEqualTo(InstanceStatus.PENDING);
            }

            assertThat(h.reconciler(60_000).pass().cancelled()).isEqualTo(2);
            for (int i = 0; i < 2; i++) {
                assertThat(view(h, key).instances().get(key.runId("m[" + i + "]", 0)).status())
                        .isEqualTo(InstanceStatus.CANCELLED);
            }
        }
    }

    /**
     * The same lost cancel, then the run is cancelled: its cancel ends the instance of the node outside the graph
     * too. Was: the run cancel and the reconciler walked the graph's nodes only, and the instance stayed pending in
     * the cancelled run, dispatched again at every stale-dispatch pass and refused, the run never leaving the active
     * index.
     */
    @Test
    void aRunCancelEndsAnInstanceOfANodeOutsideItsGraph() throws Exception {
        AtomicBoolean failCancel = new AtomicBoolean();
        try (RunHarness h = cancelFailingOnce(failCancel)) {
            String g = RunHarness.graphName("cancelorphan");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            growAndLoseTheCancelOfItsReplacement(h, failCancel, g, hash);

            assertThat(h.cancellation.cancel(g, key.partition())).isTrue();

            assertThat(status(h, key, "a")).isEqualTo(InstanceStatus.CANCELLED);
            assertThat(h.runs.read(key).orElseThrow().instances().values()).noneMatch(i -> i.status().isActive());
        }
    }

    /** A harness whose task store's next {@code cancel} fails once {@code failCancel} is set. */
    private static RunHarness cancelFailingOnce(AtomicBoolean failCancel) throws Exception {
        return new RunHarness(r -> r, t -> RunHarness.before(TaskStore.class, t, (method, args) -> {
            if (method.equals("cancel") && failCancel.getAndSet(false)) {
                throw new redis.clients.jedis.exceptions.JedisConnectionException("Connection reset");
            }
        }));
    }

    /**
     * Starts the run, decide grows a → (b, c), and a rerun of decide replaces that growth, its cancel of the grown
     * instances failing: a is out of the graph, its instance still pending.
     */
    private static void growAndLoseTheCancelOfItsReplacement(RunHarness h, AtomicBoolean failCancel, String g,
            String hash) {
        RunKey key = startedAndGrown(h, g, hash, "{}");
        assertThat(status(h, key, "a")).isEqualTo(InstanceStatus.PENDING);
        failCancel.set(true);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> h.reruns.rerun(g, key.partition(), "decide"))
                .isInstanceOf(redis.clients.jedis.exceptions.JedisConnectionException.class);
        assertThat(status(h, key, "a")).as("its growth is out, its instance still active")
                .isEqualTo(InstanceStatus.PENDING);
    }

    /**
     * Spec §7.8 step 7 (inputs from current records) with docs/dynamic-graphs.md: a downstream of a declaring node
     * waits on the grown leaves too, and its rerun sees them among its upstreams as its first run did. Was: the rerun
     * took its upstreams from the definition alone, so the leaves' outputs were missing from its input.
     */
    @Test
    void aRerunOfADownstreamOfAGrowthKeepsTheGrownUpstreamsInItsInput() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("rerungrown");
            String hash = publish(h, g);
            RunKey key = startedAndGrown(h, g, hash, null);
            for (String node : List.of("a", "b", "c")) {
                finish(h, key, node, 0, hash, "{\"from\": \"" + node + "\"}");
                h.graphRuns.onTaskTerminated(key, node);
            }
            TaskStore.Claim.Claimed first = claimed(h, key, "report", 0);
            assertThat(first.input().orElseThrow().upstreams().keySet()).containsExactlyInAnyOrder("decide", "b", "c");
            h.tasks.finish(key, new RecordField("report", Optional.empty()), first.token(), new NodeRecord(
                    NodeStatus.SUCCEEDED, key.runId("report", 0), hash, 0, h.clock.millis(), Optional.empty(), false,
                    Optional.empty()));
            h.graphRuns.onTaskTerminated(key, "report");

            assertThat(h.reruns.rerun(g, key.partition(), "report"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("report", 1)));

            TaskStore.Claim.Claimed again = claimed(h, key, "report", 1);
            assertThat(again.input().orElseThrow().upstreams().keySet()).containsExactlyInAnyOrder("decide", "b", "c");
            assertThat(again.input().orElseThrow().inputs().get("c").toString()).isEqualTo("{\"from\":\"c\"}");
        }
    }

    private static TaskStore.Claim.Claimed claimed(RunHarness h, RunKey key, String node, long rerun) {
        TaskStore.Claim claim = h.tasks.claim(key, key.runId(node, rerun), 60_000, "w");
        assertThat(claim).as(node + " r" + rerun).isInstanceOf(TaskStore.Claim.Claimed.class);
        return (TaskStore.Claim.Claimed) claim;
    }

    private static InstanceStatus status(RunHarness h, RunKey key, String node) {
        return h.runs.read(key).orElseThrow().instances().get(key.runId(node, 0)).status();
    }

    /**
     * A grown node whose `after` names another node only (here `start`, long succeeded) is no downstream of the
     * node that grew it. Was: the declaring node's event did not submit it, and it waited for a reconciler pass.
     */
    @Test
    void aGrownNodeAfterAnotherNodeOnlyIsSubmittedWhenItsGrowthLands() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growafter");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            finish(h, key, "start", 0, hash, "{}");
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "decide", 0, hash, """
                    {"swale": {"grow": {"node": [{"name": "fix", "after": ["start"], "operator": "noop"}]}}}""");

            h.graphRuns.onTaskTerminated(key, "decide");

            assertThat(h.dispatches).extracting(d -> d.identity().runId()).contains(key.runId("fix", 0))
                    .doesNotContain(key.runId("report", 0));
        }
    }

    /**
     * Two growths checked at the same moment, each against the run without the other, can close a cycle together
     * through the default `edges_to` alone: x grows a1 after p (so d waits for a1), y grows b1 after q (so e waits
     * for b1), and a1 → d → q → b1 → e → p → a1. Was: the cycle's nodes had no state, every advance threw and the
     * run never settled. The later growth is left out, as a grown name the earlier one took is.
     */
    @Test
    void twoGrowthsThatTogetherWouldFormACycleKeepTheEarlierOne() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growcycle");
            String hash = h.publish("""
                    [graph]
                    name = "%s"
                    [[node]]
                    name = "x"
                    operator = "noop"
                    [[node]]
                    name = "d"
                    after = ["x"]
                    operator = "noop"
                    [[node]]
                    name = "q"
                    after = ["d"]
                    operator = "noop"
                    [[node]]
                    name = "y"
                    operator = "noop"
                    [[node]]
                    name = "e"
                    after = ["y"]
                    operator = "noop"
                    [[node]]
                    name = "p"
                    after = ["e"]
                    operator = "noop"
                    """.formatted(g));
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            DeclaredGrowth planner = new DeclaredGrowth(h.catalog, h.runs, h.pools);
            // both checked before either is stored
            String xGrows = stored(planner, key, "x", hash, """
                    {"swale": {"grow": {"node": [{"name": "a1", "after": ["p"], "operator": "noop"}]}}}""");
            String yGrows = stored(planner, key, "y", hash, """
                    {"swale": {"grow": {"node": [{"name": "b1", "after": ["q"], "operator": "noop"}]}}}""");
            finishWith(h, key, "x", hash, xGrows);
            finishWith(h, key, "y", hash, yGrows);

            io.swale.graph.Graph effective = RunGraphs.of(h.catalog, view(h, key));
            assertThat(effective.hasNode("a1")).isTrue();
            assertThat(effective.hasNode("b1")).isFalse();
            assertThat(effective.topologicalOrder()).hasSameSizeAs(effective.nodes());
            h.graphRuns.onTasksTerminated(key, List.of("x", "y"));
            // e waits for y only: b1 is not in the graph
            assertThat(h.dispatches).extracting(d -> d.identity().runId()).contains(key.runId("e", 0))
                    .doesNotContain(key.runId("d", 0));

            // b1 submitted before its growth was left out (workers' clocks apart, §8.9): a later rerun may let it
            // in again, so the reconciler's cancel of nodes no longer in the graph leaves it alone
            assertThat(h.tasks.submit(key, key.runId("b1", 0), new io.swale.store.PendingInstance("b1", Optional.empty(),
                    hash, 0, "default", 1), new io.swale.store.TaskInput("noop",
                    tools.jackson.databind.node.JsonNodeFactory.instance.objectNode(), Map.of(), Map.of())))
                    .isEqualTo(TaskStore.Submit.NEW);
            assertThat(h.reconciler(60_000).pass().cancelled()).isZero();
            assertThat(status(h, key, "b1")).isEqualTo(InstanceStatus.PENDING);
        }
    }

    private static String stored(DeclaredGrowth planner, RunKey key, String node, String hash, String output) {
        GrowthPlanner.Plan plan = planner.plan(new TaskIdentity(key.graph(), key.partition(), node, Optional.empty(),
                hash, 0), JSON.readTree(output));
        assertThat(plan).as(node).isInstanceOf(GrowthPlanner.Plan.Grow.class);
        return ((GrowthPlanner.Plan.Grow) plan).stored();
    }

    private static void finishWith(RunHarness h, RunKey key, String node, String hash, String growth) {
        String runId = key.runId(node, 0);
        TaskStore.Claim claim = h.tasks.claim(key, runId, 60_000, "w");
        assertThat(claim).as(runId).isInstanceOf(TaskStore.Claim.Claimed.class);
        NodeRecord record = new NodeRecord(NodeStatus.SUCCEEDED, runId, hash, 0, h.clock.millis(), Optional.empty(),
                false, Optional.empty());
        assertThat(h.tasks.finish(key, new RecordField(node, Optional.empty()),
                ((TaskStore.Claim.Claimed) claim).token(), record, Optional.of(growth))).isEqualTo(TaskStore.Finish.OK);
    }

    /**
     * Grown nodes out of the declaring node's rerun scope (§6.5), an `all_done` one and one after another node
     * only, run again when the rerun's growth declares them again (docs/dynamic-graphs.md §8.5). Was: their old
     * records stood for them, and report ran on their old outputs.
     */
    @Test
    void aRerunsGrowthRunsAgainTheGrownNodesOutOfTheDeclaringNodesRerunScope() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growscope");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            String grow = """
                    {"swale": {"grow": {"node": [
                      {"name": "tidy", "operator": "noop", "trigger_rule": "all_done"},
                      {"name": "side", "after": ["start"], "operator": "noop"}]}}}""";
            h.graphRuns.startRun(hash, key.partition());
            finish(h, key, "start", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "decide", 0, hash, grow);
            h.graphRuns.onTaskTerminated(key, "decide");
            for (String node : List.of("tidy", "side", "report")) {
                finish(h, key, node, 0, hash, null);
                h.graphRuns.onTaskTerminated(key, node);
            }
            assertThat(view(h, key).run().state()).isEqualTo(RunState.COMPLETE);

            assertThat(h.reruns.rerun(g, key.partition(), "decide"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("decide", 1)));
            finish(h, key, "decide", 1, hash, grow);
            h.graphRuns.onTaskTerminated(key, "decide");

            assertThat(view(h, key).instances()).containsKeys(key.runId("tidy", 1), key.runId("side", 1))
                    .doesNotContainKey(key.runId("report", 1));
            for (String node : List.of("tidy", "side")) {
                finish(h, key, node, 1, hash, null);
                h.graphRuns.onTaskTerminated(key, node);
            }
            finish(h, key, "report", 1, hash, null);
            h.graphRuns.onTaskTerminated(key, "report");
            assertThat(view(h, key).run().state()).isEqualTo(RunState.COMPLETE);
        }
    }

    /**
     * A grown mapped node's item rerun still active when the declaring node is rerun: the new generation the
     * rerun expects lies beyond that item's rerun. Was: one past the node's floor, which the item's cancelled
     * record at that rerun met, so the node declared again derived `cancelled` and the run failed.
     */
    @Test
    void aGrownMappedNodeDeclaredAgainAfterAnItemRerunRunsEveryItemAnew() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growitems");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            String grow = """
                    {"items": [1, 2, 3], "swale": {"grow": {"node": [
                      {"name": "m", "operator": "noop", "map": "{{ upstream.decide.items }}"}]}}}""";
            h.graphRuns.startRun(hash, key.partition());
            finish(h, key, "start", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "decide", 0, hash, grow);
            h.graphRuns.onTaskTerminated(key, "decide");
            for (int i = 0; i < 3; i++) {
                finish(h, key, "m[" + i + "]", 0, hash, null);
                h.graphRuns.onTaskTerminated(key, "m[" + i + "]");
            }
            assertThat(h.reruns.rerun(g, key.partition(), "m[1]")).isInstanceOf(RerunOutcome.Submitted.class);
            assertThat(view(h, key).instances().get(key.runId("m[1]", 1)).status()).isEqualTo(InstanceStatus.PENDING);

            assertThat(h.reruns.rerun(g, key.partition(), "decide"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("decide", 1)));
            assertThat(view(h, key).instances().get(key.runId("m[1]", 1)).status()).isEqualTo(InstanceStatus.CANCELLED);
            finish(h, key, "decide", 1, hash, grow);
            h.graphRuns.onTaskTerminated(key, "decide");

            assertThat(view(h, key).instances()).containsKeys(key.runId("m[0]", 2), key.runId("m[1]", 2),
                    key.runId("m[2]", 2));
            assertThat(view(h, key).run().state()).isEqualTo(RunState.ACTIVE);
        }
    }

    private static RunView view(RunHarness h, RunKey key) {
        return h.runs.read(key).orElseThrow();
    }

    private static Map<String, Integer> dispatchesPerRunId(RunHarness h) {
        Map<String, Integer> out = new ConcurrentHashMap<>();
        h.dispatches.forEach(d -> out.merge(d.identity().runId(), 1, Integer::sum));
        return out;
    }

    /**
     * Was: a grown node's pool was never created, so where pools are created on demand (local mode, swale run) the
     * grown node's submission was refused for ever (UnknownPool), the run stuck.
     */
    @Test
    void aGrownNodesPoolIsCreatedOnDemandAndAPoolThisWorkerDoesNotKnowRefusesNothing() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growpool");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            TaskIdentity decide = new TaskIdentity(g, key.partition(), "decide", Optional.empty(), hash, 0);
            JsonNode output = JSON.readTree("""
                    {"swale": {"grow": {"node": [
                      {"name": "a", "operator": "noop", "pool": "gpu"},
                      {"name": "b", "after": ["a"], "operator": "noop"},
                      {"name": "c", "after": ["a"], "operator": "noop", "pool": "gpu_large"}]}}}""");
            java.util.Set<String> asked = new java.util.HashSet<>();
            // a worker that knows its own pool only, as a pool Deployment of the chart does
            PoolCatalog ownPoolOnly = new PoolCatalog() {
                @Override
                public boolean isConfigured(String pool) {
                    return pool.equals("default");
                }

                @Override
                public Map<String, Integer> pools() {
                    return Map.of("default", 4);
                }

                @Override
                public void ensure(java.util.Set<String> pools) {
                    asked.addAll(pools);
                }
            };

            GrowthPlanner.Plan plan = new DeclaredGrowth(h.catalog, h.runs, ownPoolOnly).plan(decide, output);

            assertThat(asked).as("the grown nodes' pools, to create where that is on")
                    .containsExactlyInAnyOrder("gpu", "default", "gpu_large");
            assertThat(plan).isInstanceOf(GrowthPlanner.Plan.Grow.class);
        }
    }

    @Test
    void threeReplicasWithTheDeclaringEventRedeliveredRunEveryGrownNodeOnceAndTheDownstreamAfterTheLeaves()
            throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growreplicas");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            assertThat(h.graphRuns.startRun(hash, key.partition()).started()).isTrue();
            finish(h, key, "start", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "decide", 0, hash, GROW);
            assertThat(view(h, key).growths()).containsOnlyKeys("decide");
            List<GraphRuns> replicas = List.of(h.graphRuns,
                    new GraphRuns(h.catalog, h.definitionStore, h.runs, h.tasks, h.submission, h.clock, h.metrics),
                    new GraphRuns(h.catalog, h.definitionStore, h.runs, h.tasks, h.submission, h.clock, h.metrics));
            AtomicBoolean over = new AtomicBoolean();
            List<String> ended = new CopyOnWriteArrayList<>();
            List<String> early = new CopyOnWriteArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> work = new ArrayList<>();
                for (GraphRuns replica : replicas) {
                    // every replica handles "decide ended" again and again (redelivery) and reconciles the run
                    work.add(pool.submit(() -> {
                        while (!over.get()) {
                            replica.onTaskTerminated(key, "decide");
                            h.runs.read(key).ifPresent(replica::advanceAll);
                        }
                        return null;
                    }));
                }
                // the worker: ends every active instance, each followed by its event to the next replica
                work.add(pool.submit(() -> {
                    int turn = 0;
                    while (view(h, key).run().state() == RunState.ACTIVE) {
                        for (TaskInstance i : view(h, key).instances().values()) {
                            if (!i.status().isActive()) {
                                continue;
                            }
                            if (i.node().equals("report") && !(ended.contains("b") && ended.contains("c"))) {
                                early.add("report active after " + ended);
                            }
                            finish(h, key, i.node(), i.rerun(), hash, null);
                            ended.add(i.node());
                            replicas.get(turn++ % replicas.size()).onTaskTerminated(key, i.node());
                        }
                    }
                    over.set(true);
                    return null;
                }));
                for (Future<?> f : work) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                over.set(true);
                pool.shutdownNow();
            }

            RunView done = view(h, key);
            assertThat(done.run().state()).isEqualTo(RunState.COMPLETE);
            assertThat(early).as("report was submitted before both grown leaves ended").isEmpty();
            assertThat(ended).containsExactlyInAnyOrder("a", "b", "c", "report");
            assertThat(ended.indexOf("a")).isLessThan(ended.indexOf("b")).isLessThan(ended.indexOf("report"));
            assertThat(ended.indexOf("c")).isLessThan(ended.indexOf("report"));
            Map<String, Integer> dispatched = dispatchesPerRunId(h);
            for (String n : List.of("a", "b", "c", "report")) {
                assertThat(dispatched).as(n + " dispatched once").containsEntry(key.runId(n, 0), 1);
            }
            for (String n : List.of("a", "b", "c")) {
                assertThat(done.nodeRecords().get("t:" + n).status()).isEqualTo(NodeStatus.SUCCEEDED);
            }
        }
    }

    @Test
    void withEveryEventLostAndAWorkerKilledHoldingAGrownNodeTheReconcilerAloneFinishesTheRun() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growrepair");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            h.graphRuns.startRun(hash, key.partition());
            Reconciler reconciler = h.reconciler(60_000);
            finish(h, key, "start", 0, hash, null);
            // no event reaches the scheduler from here on: only reconciler passes, and a second replica's pass
            reconciler.pass();
            finish(h, key, "decide", 0, hash, GROW);
            reconciler.pass();
            h.reconciler(60_000).pass();
            assertThat(view(h, key).instances()).containsKey(key.runId("a", 0))
                    .doesNotContainKeys(key.runId("b", 0), key.runId("report", 0));

            // the worker holding `a` dies (kill -9): a 1 ms lease that nothing extends
            TaskStore.Claim lost = h.tasks.claim(key, key.runId("a", 0), 1, "dead-worker");
            assertThat(lost).isInstanceOf(TaskStore.Claim.Claimed.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> h.tasks.serverTimeMs()
                    > view(h, key).instances().get(key.runId("a", 0)).leaseUntilMs().orElseThrow());
            reconciler.pass();
            assertThat(view(h, key).instances().get(key.runId("a", 0)).status()).isEqualTo(InstanceStatus.PENDING);

            finish(h, key, "a", 0, hash, null);
            reconciler.pass();
            assertThat(view(h, key).instances()).containsKeys(key.runId("b", 0), key.runId("c", 0))
                    .doesNotContainKey(key.runId("report", 0));
            finish(h, key, "b", 0, hash, null);
            reconciler.pass();
            assertThat(view(h, key).instances()).doesNotContainKey(key.runId("report", 0));
            finish(h, key, "c", 0, hash, null);
            reconciler.pass();
            assertThat(view(h, key).instances()).containsKey(key.runId("report", 0));
            finish(h, key, "report", 0, hash, null);
            reconciler.pass();
            assertThat(view(h, key).run().state()).isEqualTo(RunState.COMPLETE);
            Map<String, Integer> dispatched = dispatchesPerRunId(h);
            // `a` was dispatched again for the dead worker's lease; every other node once
            assertThat(dispatched).containsEntry(key.runId("a", 0), 2).containsEntry(key.runId("b", 0), 1)
                    .containsEntry(key.runId("c", 0), 1).containsEntry(key.runId("report", 0), 1);
        }
    }

    @Test
    void anEmptyGrowthLeavesTheDownstreamReadyAtOnce() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growempty");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            h.graphRuns.startRun(hash, key.partition());
            finish(h, key, "start", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "decide", 0, hash, "{\"swale\": {\"grow\": {\"node\": []}}}");
            h.graphRuns.onTaskTerminated(key, "decide");

            RunView v = view(h, key);
            assertThat(v.nodeRecords().get("t:decide").status()).isEqualTo(NodeStatus.SUCCEEDED);
            assertThat(v.instances()).containsKey(key.runId("report", 0));
            finish(h, key, "report", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "report");
            assertThat(view(h, key).run().state()).isEqualTo(RunState.COMPLETE);
        }
    }

    @Test
    void aRerunThatDeclaresTheSameGrownNodeAgainRunsItAgainBeforeTheDownstream() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growsame");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            h.graphRuns.startRun(hash, key.partition());
            String one = "{\"swale\": {\"grow\": {\"node\": [{\"name\": \"a\", \"operator\": \"noop\"}]}}}";
            finish(h, key, "start", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "decide", 0, hash, one);
            h.graphRuns.onTaskTerminated(key, "decide");
            finish(h, key, "a", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "a");
            finish(h, key, "report", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "report");
            assertThat(view(h, key).run().state()).isEqualTo(RunState.COMPLETE);

            assertThat(h.reruns.rerun(g, key.partition(), "decide"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("decide", 1)));
            finish(h, key, "decide", 1, hash, one);
            h.graphRuns.onTaskTerminated(key, "decide");

            // the old record of `a` does not stand for the new growth's `a`: it runs again, and report waits for it
            RunView v = view(h, key);
            assertThat(v.instances()).containsKey(key.runId("a", 1)).doesNotContainKey(key.runId("report", 1));
            finish(h, key, "a", 1, hash, null);
            h.graphRuns.onTaskTerminated(key, "a");
            assertThat(view(h, key).instances()).containsKey(key.runId("report", 1));
            finish(h, key, "report", 1, hash, null);
            h.graphRuns.onTaskTerminated(key, "report");
            assertThat(view(h, key).run().state()).isEqualTo(RunState.COMPLETE);
        }
    }

    @Test
    void aRerunReplacingAGrowthCancelsEveryItemOfAGrownMappedNodeAndTakesLeasedNodesOutOfTheirQueues()
            throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growreplace");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            List<String> leftQueues = new CopyOnWriteArrayList<>();
            h.cancellation.onLeasedInstanceCancelled(leftQueues::add);
            h.graphRuns.startRun(hash, key.partition());
            finish(h, key, "start", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "decide", 0, hash, """
                    {"items": [1, 2, 3], "swale": {"grow": {"node": [
                      {"name": "each", "after": ["decide"], "operator": "noop", "map": "{{ upstream.decide.items }}"},
                      {"name": "leased", "operator": "noop", "leases": ["growreplace-x"]}]}}}""");
            h.graphRuns.onTaskTerminated(key, "decide");
            RunView grown = view(h, key);
            assertThat(grown.instances()).containsKeys(key.runId("each[0]", 0), key.runId("each[2]", 0),
                    key.runId("leased", 0));

            assertThat(h.reruns.rerun(g, key.partition(), "decide"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("decide", 1)));

            RunView after = view(h, key);
            for (int i = 0; i < 3; i++) {
                assertThat(after.instances().get(key.runId("each[" + i + "]", 0)).status()).as("item " + i)
                        .isEqualTo(InstanceStatus.CANCELLED);
            }
            assertThat(after.instances().get(key.runId("leased", 0)).status()).isEqualTo(InstanceStatus.CANCELLED);
            // a pending instance of a node with leases may wait in a lease queue: it is told to leave it
            assertThat(leftQueues).containsExactly(key.runId("leased", 0));

            // declared again, the grown nodes run again: their cancelled records do not stand for them
            finish(h, key, "decide", 1, hash, """
                    {"items": [1, 2, 3], "swale": {"grow": {"node": [
                      {"name": "each", "after": ["decide"], "operator": "noop", "map": "{{ upstream.decide.items }}"},
                      {"name": "leased", "operator": "noop", "leases": ["growreplace-x"]}]}}}""");
            h.graphRuns.onTaskTerminated(key, "decide");
            assertThat(view(h, key).instances()).containsKeys(key.runId("each[0]", 1), key.runId("leased", 1));
        }
    }

    @Test
    void aRerunOfAMappedNodeUpstreamOfADeclaringNodeCancelsTheGrownNodesItTakesOut() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growmapped");
            String hash = h.publish("""
                    [graph]
                    name = "%s"
                    [[node]]
                    name = "start"
                    operator = "noop"
                    [[node]]
                    name = "m"
                    after = ["start"]
                    operator = "noop"
                    map = "{{ upstream.start.items }}"
                    [[node]]
                    name = "decide"
                    after = ["m"]
                    operator = "noop"
                    """.formatted(g));
            RunKey key = h.key(g);
            h.graphRuns.startRun(hash, key.partition());
            finish(h, key, "start", 0, hash, "{\"items\": [1]}");
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "m[0]", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "m[0]");
            finish(h, key, "decide", 0, hash, "{\"swale\": {\"grow\": {\"node\": [{\"name\": \"slow\", \"operator\": \"noop\"}]}}}");
            h.graphRuns.onTaskTerminated(key, "decide");
            assertThat(view(h, key).instances().get(key.runId("slow", 0)).status()).isEqualTo(InstanceStatus.PENDING);

            assertThat(h.reruns.rerun(g, key.partition(), "m")).isInstanceOf(RerunOutcome.Submitted.class);

            // decide runs again, so its growth is out of the run until it declares one anew
            assertThat(view(h, key).instances().get(key.runId("slow", 0)).status())
                    .isEqualTo(InstanceStatus.CANCELLED);
        }
    }

    @Test
    void aGrownNodeStillPendingWhenItsDeclaringNodeIsRerunRunsAgainWhenTheNewGrowthDeclaresIt() throws Exception {
        try (RunHarness h = new RunHarness()) {
            String g = RunHarness.graphName("growagain");
            String hash = publish(h, g);
            RunKey key = h.key(g);
            String fix = "{\"swale\": {\"grow\": {\"node\": [{\"name\": \"fix\", \"operator\": \"noop\"}]}}}";
            h.graphRuns.startRun(hash, key.partition());
            finish(h, key, "start", 0, hash, null);
            h.graphRuns.onTaskTerminated(key, "start");
            finish(h, key, "decide", 0, hash, fix);
            h.graphRuns.onTaskTerminated(key, "decide");
            assertThat(view(h, key).instances().get(key.runId("fix", 0)).status()).isEqualTo(InstanceStatus.PENDING);

            assertThat(h.reruns.rerun(g, key.partition(), "decide"))
                    .isEqualTo(new RerunOutcome.Submitted(key.runId("decide", 1)));
            assertThat(view(h, key).instances().get(key.runId("fix", 0)).status())
                    .isEqualTo(InstanceStatus.CANCELLED);
            finish(h, key, "decide", 1, hash, fix);
            h.graphRuns.onTaskTerminated(key, "decide");

            // the cancelled record of fix-r0 does not stand for the fix the new growth declares
            assertThat(view(h, key).instances()).as("fix runs again").containsKey(key.runId("fix", 1));
            assertThat(view(h, key).instances().get(key.runId("fix", 1)).status()).isEqualTo(InstanceStatus.PENDING);
            finish(h, key, "fix", 1, hash, null);
            h.graphRuns.onTaskTerminated(key, "fix");
            assertThat(view(h, key).instances().get(key.runId("report", 0)).status())
                    .isEqualTo(InstanceStatus.PENDING);
        }
    }
}
