package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.swale.store.ResourceStore;
import io.swale.store.ResourceStore.Grant;
import io.swale.store.ResourceStore.Holder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/** The resource scripts (docs/resources.md) against a real redis-server: capacity, all or nothing, FIFO, fencing, expiry. */
@WithTestRedis
class RedisResourceStoreIT {
    private static UnifiedJedis redis;
    private static final AtomicLong SEQ = new AtomicLong();

    private RedisResourceStore store;
    private String p;

    @BeforeAll
    static void connect(UnifiedJedis started) {
        redis = started;
    }

    @BeforeEach
    void freshPrefix() {
        p = "r" + SEQ.incrementAndGet();
        store = new RedisResourceStore(redis, p, 60_000);
    }

    private Grant grant(String run, String... names) {
        return store.grant(run, "g-" + run, List.of(names), 60_000, "dispatch-" + run);
    }

    private ResourceStore.Released release(String run) {
        return store.release(new Holder(run, "g-" + run), false);
    }

    @Test
    void everyKeyIsInOneHashSlot() {
        assertThat(store.keys()).hasSize(10);
        assertThat(store.keys().stream().map(JedisClusterCRC16::getSlot).distinct()).hasSize(1);
    }

    @Test
    void anUndeclaredResourceHasCapacityOneAndADeclaredOneItsCapacity() {
        assertThat(grant("a", "x")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("b", "x")).isEqualTo(new Grant.Waiting("x", ((Grant.Waiting) grant("b", "x")).sinceMs()));
        store.setCapacity("y", 2);
        assertThat(grant("c", "y")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("d", "y")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("e", "y")).isInstanceOf(Grant.Waiting.class);
        assertThat(store.resources().get("y").held()).isEqualTo(2);
        assertThat(store.resources().get("y").waiting()).extracting(ResourceStore.WaitedBy::runId).containsExactly("e");
        assertThat(store.resources().get("x").declared()).isFalse();
        assertThat(store.resources().get("y").capacity()).isEqualTo(2);
    }

    /** Names with {@code {{ env.NAME }}} render on the worker: a woken waiter may ask for others. */
    @Test
    void aWaiterThatAsksAgainForOtherNamesWaitsInLineUnderThoseInItsPlace() {
        assertThat(grant("holdsA", "host:a")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("holdsB", "host:b")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("w", "host:a")).isInstanceOf(Grant.Waiting.class);
        long since = waitingSince("w");
        // a line is kept by the time of the first wait: "later" must come at a later millisecond
        org.awaitility.Awaitility.await().until(() -> System.currentTimeMillis() > since + 1);
        assertThat(grant("later", "host:b")).isInstanceOf(Grant.Waiting.class);

        assertThat(grant("w", "host:b")).isEqualTo(new Grant.Waiting("host:b", since));

        assertThat(store.resources().get("host:a").waiting()).isEmpty();
        assertThat(store.resources().get("host:b").waiting()).extracting(ResourceStore.WaitedBy::runId)
                .containsExactly("w", "later");
        assertThat(release("holdsB").wake()).containsExactly("dispatch-w");
        assertThat(release("holdsA").wake()).isEmpty();
    }

    /**
     * A woken waiter that asks for other names leaves the line it headed: the waiter behind it there is woken by that
     * ask, whether the ask is granted or waits. Was: left for the reap's scan of the oldest waiters.
     */
    @Test
    void aWaiterThatLeavesALineForOtherNamesWakesTheNextInThatLine() {
        for (String other : List.of("host:free", "host:busy")) {
            String a = "a-" + other;
            assertThat(grant("holder-" + other, a)).isInstanceOf(Grant.Granted.class);
            assertThat(grant("w-" + other, a)).isInstanceOf(Grant.Waiting.class);
            long since = waitingSince("w-" + other);
            await().atMost(Duration.ofSeconds(5)).until(() -> serverMs() > since);
            assertThat(grant("behind-" + other, a)).isInstanceOf(Grant.Waiting.class);
            assertThat(release("holder-" + other).wake()).containsExactly("dispatch-w-" + other);
            // `behind` is not let in while `w` heads the line: it moves to `other`, and asks again
            assertThat(grant("behind-" + other, a)).isInstanceOf(Grant.Waiting.class);
        }
        assertThat(grant("holds-busy", "host:busy")).isInstanceOf(Grant.Granted.class);

        Grant granted = grant("w-host:free", "host:free");
        Grant waiting = grant("w-host:busy", "host:busy");

        assertThat(granted).isInstanceOf(Grant.Granted.class);
        assertThat(granted.wake()).containsExactly("dispatch-behind-host:free");
        assertThat(waiting).isInstanceOf(Grant.Waiting.class);
        assertThat(waiting.wake()).containsExactly("dispatch-behind-host:busy");
    }

    /**
     * A waiter far down the oldest-first order may head the line of a resource nobody holds: the check looks at
     * it too, since there it blocks every newcomer.
     */
    @Test
    void theWaitersToCheckIncludeTheHeadOfEveryLineBeyondTheOldest() {
        assertThat(grant("holder", "busy")).isInstanceOf(Grant.Granted.class);
        for (int i = 0; i < 20; i++) {
            assertThat(grant("old" + i, "busy")).isInstanceOf(Grant.Waiting.class);
        }
        long last = store.resources().get("busy").waiting().stream().mapToLong(ResourceStore.WaitedBy::sinceMs).max()
                .orElseThrow();
        // later than every old one, so not among the oldest whatever their run ids
        await().atMost(Duration.ofSeconds(5)).until(() -> serverMs() > last);
        assertThat(grant("head", "busy", "db")).isInstanceOf(Grant.Waiting.class);
        assertThat(grant("newcomer", "db")).as("behind head, though nobody holds db").isInstanceOf(Grant.Waiting.class);

        assertThat(store.waitersToCheck(10)).extracting(ResourceStore.Queued::runId).hasSize(11)
                .contains("head").doesNotContain("newcomer").doesNotHaveDuplicates();
    }

    /**
     * A raised capacity wakes as many of the line as it lets in, beyond 64, even when the oldest 256 waiters of all
     * wait elsewhere: were only the first 64 woken, the rest would sit idle beside free leases until a holder left.
     */
    @Test
    void aRaisedCapacityWakesAsManyOfTheLineAsItLetsIn() {
        assertThat(grant("holds-busy", "busy")).isInstanceOf(Grant.Granted.class);
        for (int i = 0; i < 300; i++) {
            assertThat(grant("old" + i, "busy")).isInstanceOf(Grant.Waiting.class);
        }
        assertThat(grant("holds-warehouse", "warehouse")).isInstanceOf(Grant.Granted.class);
        for (int i = 0; i < 100; i++) {
            assertThat(grant("w" + i, "warehouse")).isInstanceOf(Grant.Waiting.class);
        }

        List<String> woken = store.setCapacity("warehouse", 200);

        assertThat(woken).hasSize(100).contains("dispatch-w0", "dispatch-w99");
    }

    /**
     * A copy of a holder's dispatch that queued behind the holder's own grant leaves the line when the grant is asked
     * for again under its id, and the waiter it was ahead of is let in: the grant takes no new lease. Was: that
     * waiter was not woken, and waited for the next release or the reap's scan.
     */
    @Test
    void aGrantAskedAgainUnderItsIdWakesTheWaiterItsQueuedCopyWasAheadOf() {
        store.setCapacity("r", 2);
        assertThat(store.grant("a", "g-a", List.of("r"), 60_000, "dispatch-a")).isInstanceOf(Grant.Granted.class);
        assertThat(store.grant("a", "g-copy", List.of("r"), 60_000, "dispatch-a")).as("a copy, in line")
                .isInstanceOf(Grant.Waiting.class);
        assertThat(grant("b", "r")).as("behind the copy").isInstanceOf(Grant.Waiting.class);

        Grant again = store.grant("a", "g-a", List.of("r"), 60_000, "dispatch-a");

        assertThat(again).isInstanceOf(Grant.Granted.class);
        assertThat(again.wake()).containsExactly("dispatch-b");
        assertThat(grant("b", "r")).isInstanceOf(Grant.Granted.class);
    }

    /**
     * The heads of the lines are read in turn, each check going on after the last line the one before read, and
     * round: a check that started at a random waiter (of 50,000 in one line, say) read a short line's head once in
     * hundreds of passes, and a stale waiter heading it blocked that resource for hours.
     */
    @Test
    void theHeadsOfTheLinesAreReadInTurnCheckAfterCheck() {
        // the three oldest waiters, read by every check, wait for `busy`
        assertThat(grant("holder", "busy")).isInstanceOf(Grant.Granted.class);
        for (int i = 0; i < 3; i++) {
            assertThat(grant("old" + i, "busy")).isInstanceOf(Grant.Waiting.class);
        }
        long last = store.resources().get("busy").waiting().stream().mapToLong(ResourceStore.WaitedBy::sinceMs).max()
                .orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(() -> serverMs() > last);
        for (int i = 9; i >= 0; i--) {
            assertThat(grant("holds-" + i, "line:0" + i)).isInstanceOf(Grant.Granted.class);
            assertThat(grant("w" + i, "line:0" + i)).isInstanceOf(Grant.Waiting.class);
        }
        List<List<String>> heads = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            heads.add(store.waitersToCheck(3).stream().map(ResourceStore.Queued::runId)
                    .filter(run -> !run.startsWith("old")).toList());
        }
        // three lines a check, `busy` first (its head is among the oldest, read already)
        assertThat(heads).containsExactly(List.of("w0", "w1"), List.of("w2", "w3", "w4"), List.of("w5", "w6", "w7"),
                List.of("w8", "w9"));
    }

    @Test
    void aGrantOfSeveralResourcesIsAllOrNothing() {
        assertThat(grant("a", "y")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("b", "x", "y")).isEqualTo(new Grant.Waiting("y", waitingSince("b")));
        assertThat(store.resources().get("x").held()).as("nothing of x taken while y is busy").isZero();
        ResourceStore.Released r = release("a");
        assertThat(r.freed()).isTrue();
        assertThat(r.wake()).containsExactly("dispatch-b");
        assertThat(grant("b", "x", "y")).isInstanceOf(Grant.Granted.class);
        assertThat(store.resources().get("x").held()).isEqualTo(1);
        assertThat(store.resources().get("y").held()).isEqualTo(1);
        assertThat(store.resources().get("y").waiting()).isEmpty();
    }

    @Test
    void aWaiterNeedingTwoResourcesIsNotOvertakenByNewcomersNeedingOne() {
        store.setCapacity("x", 2);
        assertThat(grant("h1", "x")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("h2", "y")).isInstanceOf(Grant.Granted.class);
        // both needs x and y; y is busy, so it waits and reserves its place on x too
        assertThat(grant("both", "x", "y")).isInstanceOf(Grant.Waiting.class);
        // x has a free lease, but `both` is ahead: newcomers on x wait behind it
        assertThat(grant("n1", "x")).isEqualTo(new Grant.Waiting("x", waitingSince("n1")));
        assertThat(release("h2").wake()).containsExactly("dispatch-both");
        assertThat(grant("n1", "x")).as("still behind `both`").isInstanceOf(Grant.Waiting.class);
        assertThat(grant("both", "x", "y")).isInstanceOf(Grant.Granted.class);
        assertThat(release("h1").wake()).containsExactly("dispatch-n1");
        assertThat(grant("n1", "x")).isInstanceOf(Grant.Granted.class);
    }

    @Test
    void aReleaseIsFencedByItsGrantId() {
        assertThat(store.grant("a", "old", List.of("x"), 60_000, "d")).isInstanceOf(Grant.Granted.class);
        assertThat(store.release(new Holder("a", "other"), false).freed()).isFalse();
        assertThat(store.resources().get("x").held()).isEqualTo(1);
        assertThat(store.renew(List.of(new Holder("a", "old"), new Holder("b", "never")), 60_000)).containsExactly("b");
        assertThat(store.release(new Holder("a", "old"), false).freed()).isTrue();
        assertThat(store.release(new Holder("a", "old"), false).freed()).as("a second release frees nothing").isFalse();
        assertThat(store.resources()).doesNotContainKey("x");
    }

    @Test
    void aDuplicateDispatchOfAHolderTakesNoSecondLease() {
        store.setCapacity("x", 5);
        assertThat(store.grant("a", "first", List.of("x"), 60_000, "d")).isInstanceOf(Grant.Granted.class);
        assertThat(store.grant("a", "second", List.of("x"), 60_000, "d")).isInstanceOf(Grant.Waiting.class);
        assertThat(store.resources().get("x").held()).isEqualTo(1);
    }

    @Test
    void anExpiredGrantIsReapedAndWakesTheHeadWaiter() {
        assertThat(store.grant("dead", "g", List.of("x"), 1, "d-dead")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("next", "x")).isInstanceOf(Grant.Waiting.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            ResourceStore.Reaped r = store.reap(100);
            if (r.freed() == 0) {
                return false;
            }
            assertThat(r.wake()).containsExactly("dispatch-next");
            return true;
        });
        assertThat(store.renew(List.of(new Holder("dead", "g")), 60_000)).containsExactly("dead");
        assertThat(grant("next", "x")).isInstanceOf(Grant.Granted.class);
    }

    /**
     * An instance whose grant expired asks again before the reap has freed it: the ask frees it, and the waiter it
     * held back is woken by that ask (its reply), not left for the reap's scan or a later release.
     */
    @Test
    void anAskThatFreesItsOwnExpiredGrantWakesTheWaiterItHeldBack() {
        assertThat(store.grant("dead", "g1", List.of("x"), 1, "d-dead")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("next", "x")).isInstanceOf(Grant.Waiting.class);
        long deadline = store.resources().get("x").holders().getFirst().deadlineMs();
        await().atMost(Duration.ofSeconds(5)).until(() -> serverMs() > deadline);

        Grant again = store.grant("dead", "g2", List.of("x"), 60_000, "d-dead");

        assertThat(again).isInstanceOf(Grant.Waiting.class);
        assertThat(again.wake()).containsExactly("dispatch-next");
        assertThat(store.resources().get("x").held()).isZero();
        assertThat(grant("next", "x")).isInstanceOf(Grant.Granted.class);
    }

    /**
     * The same grant asked for again (a claim whose outcome was unknown, its dispatch back): granted again while it
     * lives, for one lease from now; once expired, it is freed and asked for as anyone's, behind those waiting.
     */
    @Test
    void aGrantAskedAgainUnderItsIdLastsOneLeaseFromNowWhileItLivesAndIsFreedOnceExpired() {
        assertThat(store.grant("a", "g", List.of("x"), 60_000, "d-a")).isInstanceOf(Grant.Granted.class);
        assertThat(store.grant("a", "g", List.of("x"), 120_000, "d-a")).isEqualTo(new Grant.Granted(0));
        assertThat(store.resources().get("x").holders().getFirst().deadlineMs()).isGreaterThan(serverMs() + 100_000);
        assertThat(store.resources().get("x").held()).isEqualTo(1);
        // another dispatch of `a` waited in line behind its own grant meanwhile: asked again, the grant takes it out
        assertThat(store.grant("a", "other", List.of("x"), 60_000, "d-a")).isInstanceOf(Grant.Waiting.class);
        assertThat(grant("behind", "x")).isInstanceOf(Grant.Waiting.class);
        assertThat(store.grant("a", "g", List.of("x"), 60_000, "d-a")).isEqualTo(new Grant.Granted(0));
        assertThat(store.resources().get("x").waiting()).extracting(ResourceStore.WaitedBy::runId)
                .containsExactly("behind");

        assertThat(store.grant("b", "g", List.of("y"), 1, "d-b")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("next", "y")).isInstanceOf(Grant.Waiting.class);
        long deadline = store.resources().get("y").holders().getFirst().deadlineMs();
        await().atMost(Duration.ofSeconds(5)).until(() -> serverMs() > deadline);
        Grant expired = store.grant("b", "g", List.of("y"), 60_000, "d-b");
        assertThat(expired).isInstanceOf(Grant.Waiting.class);
        assertThat(expired.wake()).containsExactly("dispatch-next");
    }

    /**
     * docs/resources.md: a waiter woken but not back is woken again after the wake interval by the reap pass. Was:
     * only if it was among the 256 oldest waiters, so one behind many older ones waited for the reconciler.
     */
    @Test
    void aWokenWaiterThatDidNotComeBackIsWokenAgainWhereverItWaits() {
        ResourceStore quick = new RedisResourceStore(redis, p, 100);
        assertThat(grant("t-holder", "t")).isInstanceOf(Grant.Granted.class);
        for (int i = 0; i < 300; i++) {
            assertThat(grant("old" + i, "t")).isInstanceOf(Grant.Waiting.class);
        }
        assertThat(grant("b-holder", "b")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("w", "b")).isInstanceOf(Grant.Waiting.class);
        // its wake is sent, and lost
        assertThat(quick.release(new Holder("b-holder", "g-b-holder"), false).wake()).containsExactly("dispatch-w");

        await().atMost(Duration.ofSeconds(5)).until(() -> quick.reap(100).wake().contains("dispatch-w"));
        assertThat(grant("w", "b")).isInstanceOf(Grant.Granted.class);
    }

    @Test
    void aCancelledWaiterLeavesEveryQueue() {
        assertThat(grant("a", "x")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("w", "x", "y")).isInstanceOf(Grant.Waiting.class);
        assertThat(store.waitingFor(List.of("w", "a"))).containsOnlyKeys("w");
        assertThat(store.waitingFor(List.of("w")).get("w")).containsExactly("x", "y");
        store.leave("w");
        assertThat(store.waitingFor(List.of("w"))).isEmpty();
        assertThat(release("a").wake()).isEmpty();
        assertThat(store.resources()).doesNotContainKey("y");
    }

    /**
     * A waiter that leaves (its instance cancelled, or refused before its grant) may have held back the next
     * waiters of its lines. Was: they were woken only if among the oldest 256 waiters, else by the reconciler's
     * repair of stale dispatches a minute or two later.
     */
    @Test
    void aWaiterLeavingItsLinesWakesTheNextInThemBeyondTheOldest() {
        assertThat(grant("t-holder", "t")).isInstanceOf(Grant.Granted.class);
        for (int i = 0; i < 300; i++) {
            assertThat(grant("old" + i, "t")).isInstanceOf(Grant.Waiting.class);
        }
        assertThat(grant("s-holder", "s")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("w1", "r", "s")).isInstanceOf(Grant.Waiting.class);
        assertThat(grant("w2", "r")).as("behind w1 in r's line").isInstanceOf(Grant.Waiting.class);

        assertThat(store.leave("w1").wake()).containsExactly("dispatch-w2");
        assertThat(grant("w2", "r")).isInstanceOf(Grant.Granted.class);
    }

    @Test
    void loweringACapacityKeepsTheHoldersAndGrantsNothingUntilBelow() {
        store.setCapacity("x", 3);
        for (String run : List.of("a", "b", "c")) {
            assertThat(grant(run, "x")).isInstanceOf(Grant.Granted.class);
        }
        store.setCapacity("x", 1);
        assertThat(store.resources().get("x").held()).isEqualTo(3);
        assertThat(grant("d", "x")).isInstanceOf(Grant.Waiting.class);
        assertThat(release("a").wake()).isEmpty();
        assertThat(release("b").wake()).isEmpty();
        assertThat(release("c").wake()).containsExactly("dispatch-d");
    }

    @Test
    void aWokenWaiterIsNotWokenAgainUntilTheWakeIntervalUnlessItCameBack() {
        assertThat(grant("a", "x")).isInstanceOf(Grant.Granted.class);
        assertThat(grant("w", "x")).isInstanceOf(Grant.Waiting.class);
        assertThat(release("a").wake()).containsExactly("dispatch-w");
        assertThat(store.reap(100).wake()).as("woken a moment ago").isEmpty();
        assertThat(new RedisResourceStore(redis, p, 0).reap(100).wake()).as("past the wake interval")
                .containsExactly("dispatch-w");
    }

    private long waitingSince(String run) {
        return store.resources().values().stream().flatMap(r -> r.waiting().stream())
                .filter(w -> w.runId().equals(run)).findFirst().orElseThrow().sinceMs();
    }

    /** A pending instance of graph {@code g}, node {@code node}, and the dispatch its waiter carries. */
    private static io.swale.task.LeaseWaiter waiter(String g, String node) {
        return new io.swale.task.LeaseWaiter("default", new io.swale.task.TaskIdentity(g, io.swale.graph.Partition.of("p"),
                node, java.util.Optional.empty(), "h", 0));
    }

    private static void submit(RedisTaskStore tasks, io.swale.task.LeaseWaiter w) {
        assertThat(tasks.submit(w.identity().runKey(), w.identity().runId(), new io.swale.store.PendingInstance(
                w.identity().node(), java.util.Optional.empty(), "h", 0, "default", 1), new io.swale.store.TaskInput(
                "noop", tools.jackson.databind.node.JsonNodeFactory.instance.nullNode(), java.util.Map.of(),
                java.util.Map.of()))).isEqualTo(io.swale.store.TaskStore.Submit.NEW);
    }

    private Grant wait(io.swale.task.LeaseWaiter w) {
        return store.grant(w.identity().runId(), "g-" + w.identity().node(), List.of("db"), 60_000, w.encode());
    }

    @Test
    void aWaiterWhoseInstanceIsNoLongerPendingIsDroppedAndLetsTheNextIn() {
        RedisTaskStore tasks = new RedisTaskStore(redis, p + "t");
        io.swale.store.redis.RedisRunStore runs = new io.swale.store.redis.RedisRunStore(redis, p + "t");
        String g = "stale" + p;
        var claimed = waiter(g, "claimed");
        var gone = waiter(g, "gone"); // never submitted: its run was forgotten
        var next = waiter(g, "next");
        submit(tasks, claimed);
        submit(tasks, next);
        assertThat(grant("holder", "db")).isInstanceOf(Grant.Granted.class);
        assertThat(wait(claimed)).isInstanceOf(Grant.Waiting.class);
        assertThat(wait(gone)).isInstanceOf(Grant.Waiting.class);
        assertThat(wait(next)).isInstanceOf(Grant.Waiting.class);
        // the head is woken, and its instance is claimed by another dispatch (or cancelled) instead: the
        // dispatch the wake sent never asks for the lease again
        assertThat(release("holder").wake()).containsExactly(claimed.encode());
        assertThat(tasks.claim(claimed.identity().runKey(), claimed.identity().runId(), 60_000, "elsewhere"))
                .isInstanceOf(io.swale.store.TaskStore.Claim.Claimed.class);
        // both phantoms stand in line ahead of `next`, with the resource free
        assertThat(wait(next)).isInstanceOf(Grant.Waiting.class);

        ResourceStore.Reaped swept = new io.swale.worker.StaleWaiters(store, runs, 64).sweep();

        assertThat(swept.freed()).isEqualTo(2);
        assertThat(swept.wake()).containsExactly(next.encode());
        assertThat(store.resources().get("db").waiting()).extracting(ResourceStore.WaitedBy::runId)
                .containsExactly(next.identity().runId());
        assertThat(wait(next)).isInstanceOf(Grant.Granted.class);
        assertThat(store.resources().get("db").waiting()).isEmpty();
    }

    @Test
    void aStaleWaiterThatAsksAgainAfterTheCheckReadItKeepsItsPlace() {
        String g = "fence" + p;
        var w = waiter(g, "n");
        assertThat(grant("holder", "db")).isInstanceOf(Grant.Granted.class);
        assertThat(wait(w)).isInstanceOf(Grant.Waiting.class);
        List<ResourceStore.Queued> read = store.waitersToCheck(10);
        assertThat(read).extracting(ResourceStore.Queued::runId).containsExactly(w.identity().runId());
        // its instance became pending again and its dispatch asked, after the check read the line
        await().atMost(Duration.ofSeconds(5)).until(() -> serverMs() > read.getFirst().seenMs());
        assertThat(wait(w)).isInstanceOf(Grant.Waiting.class);

        assertThat(store.drop(read).freed()).isZero();
        assertThat(store.resources().get("db").waiting()).extracting(ResourceStore.WaitedBy::runId)
                .containsExactly(w.identity().runId());
        // read again, nothing asked since: dropped
        assertThat(store.drop(store.waitersToCheck(10)).freed()).isEqualTo(1);
        assertThat(store.resources().get("db").waiting()).isEmpty();
    }

    @Test
    void aWokenWaiterRefusedBeforeItsGrantLeavesTheQueueAtOnce() {
        // waiters of one millisecond are in run id order: `a` first
        var w = waiter("refused" + p, "a");
        var behind = waiter("refused" + p, "b");
        assertThat(grant("holder", "db")).isInstanceOf(Grant.Granted.class);
        assertThat(wait(w)).isInstanceOf(Grant.Waiting.class);
        assertThat(wait(behind)).isInstanceOf(Grant.Waiting.class);
        assertThat(release("holder").wake()).containsExactly(w.encode());
        List<io.swale.task.TaskIdentity> dispatched = new java.util.concurrent.CopyOnWriteArrayList<>();
        var ticker = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        // its graph was forgotten meanwhile: the woken dispatch is refused before it asks for the lease again
        try (var gate = new io.swale.worker.ResourceGate(store, new RedisTaskStore(redis, p + "t"), hash -> java.util.Optional.empty(),
                (pool, id) -> dispatched.add(id), new io.swale.worker.ResourceGate.Settings(60_000, Duration.ofSeconds(10),
                        false, java.util.Map.of()), name -> false, (name, ms) -> { }, ticker)) {
            assertThat(gate.admit("default", w.identity()))
                    .isInstanceOf(io.swale.worker.LeaseGate.Admission.Refused.class);
        } finally {
            ticker.shutdownNow();
        }
        assertThat(store.resources().get("db").waiting()).extracting(ResourceStore.WaitedBy::runId)
                .containsExactly(behind.identity().runId());
        assertThat(dispatched).containsExactly(behind.identity());
    }

    private static long serverMs() {
        return (Long) redis.eval("local t = redis.call('TIME') return t[1] * 1000 + math.floor(t[2] / 1000)");
    }
}
