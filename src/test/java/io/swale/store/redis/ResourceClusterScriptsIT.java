package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.store.ResourceStore;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Every script of {@link RedisResourceStore} on the 3-primary Redis Cluster, which refuses a script whose keys
 * span two slots or that touches a key not declared in KEYS on another node: the resources' one slot
 * ({@code {<prefix>:res}}) checked for real, not only by computing CRC16.
 */
@WithTestRedisCluster
class ResourceClusterScriptsIT {
    private static TestRedisCluster cluster;

    @BeforeAll
    static void connect(TestRedisCluster started) {
        cluster = started;
    }

    @Test
    void everyResourceScriptRunsOnACluster() {
        RedisResourceStore store = new RedisResourceStore(cluster.redis, "rc", 60_000);
        assertThat(store.keys().stream().map(JedisClusterCRC16::getSlot).collect(Collectors.toSet())).hasSize(1);

        // capacity, then a grant of two resources, a second waiting behind it
        assertThat(store.setCapacity("db", 1)).isEmpty();
        assertThat(store.grant("r1", "g1", List.of("db", "s3"), 60_000, "d1"))
                .isInstanceOf(ResourceStore.Grant.Granted.class);
        assertThat(store.grant("r2", "g2", List.of("db"), 60_000, "d2")).isInstanceOf(ResourceStore.Grant.Waiting.class);

        // renew: the live grant is kept, a stale holder is reported lost
        assertThat(store.renew(List.of(new ResourceStore.Holder("r1", "g1"), new ResourceStore.Holder("r9", "g9")), 60_000))
                .containsExactly("r9");

        // view
        Map<String, ResourceStore.Resource> view = store.resources();
        assertThat(view.get("db").held()).isEqualTo(1);
        assertThat(view.get("db").waiting()).extracting(ResourceStore.WaitedBy::runId).containsExactly("r2");
        assertThat(store.waitingFor(List.of("r1", "r2"))).containsOnlyKeys("r2");

        // a stale release frees nothing; the holder's release wakes the waiter
        assertThat(store.release(new ResourceStore.Holder("r1", "old"), false).freed()).isFalse();
        ResourceStore.Released released = store.release(new ResourceStore.Holder("r1", "g1"), false);
        assertThat(released.freed()).isTrue();
        assertThat(released.wake()).containsExactly("d2");

        // the waiter's grant expires and is reaped
        assertThat(store.grant("r2", "g3", List.of("db"), 1, "d2")).isInstanceOf(ResourceStore.Grant.Granted.class);
        Awaitility.await().until(() -> store.reap(10).freed() == 1);
        assertThat(store.resources().get("db").held()).isZero();

        // a cancel leaves the queue
        store.grant("r3", "g4", List.of("db"), 60_000, "d3");
        store.grant("r4", "g5", List.of("db"), 60_000, "d4");
        store.leave("r4");
        assertThat(store.waitingFor(List.of("r4"))).isEmpty();

        // the stale-waiter check reads the line and drops a waiter
        store.grant("r5", "g6", List.of("db"), 60_000, "d5");
        List<ResourceStore.Queued> line = store.waitersToCheck(10);
        assertThat(line).extracting(ResourceStore.Queued::runId).containsExactly("r5");
        assertThat(store.drop(line).freed()).isEqualTo(1);
        assertThat(store.waitingFor(List.of("r5"))).isEmpty();

        Set<String> notRun = store.scriptShas().entrySet().stream().filter(e -> !cluster.ranSomewhere(e.getValue()))
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        assertThat(notRun).as("resource scripts never run on the cluster").isEmpty();
        assertThat(store.scriptShas()).containsOnlyKeys("grant", "release", "renew", "reap", "capacity", "view", "waiters",
                "drop");
    }
}
