package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.settings.SwaleProperties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.JsonNode;

/** Idempotency-Key on start, rerun and cancel: a retried request is applied once and answered with its outcome. */
class IdempotencyIT extends IntegrationTest {
    @Autowired
    UnifiedJedis redis;

    @Autowired
    SwaleProperties props;

    @Test
    void retriedStartIsAnsweredFromItsRecordAndStartsNothingMore() {
        String g = unique("idem_start");
        api.publish(Graphs.chain(g, 1));
        String key = unique("key");

        SwaleClient.Response first = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p1\"]}",
                "Idempotency-Key", key);
        awaitSettled(g, "p1");
        SwaleClient.Response again = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p1\"]}",
                "Idempotency-Key", key);

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.body().get("started").toString()).isEqualTo("[\"p1\"]");
        assertThat(first.header("Swale-Request-Id")).isEqualTo(key);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        // without the key the same start is a new request: the partition already had a run
        assertThat(api.start(g, "p1").body().get("started").size()).isZero();

        JsonNode record = api.get("/api/v1/requests/" + key).body();
        assertThat(record.get("request").toString())
                .isEqualTo("{\"kind\":\"start\",\"graph\":\"" + g + "\",\"partitions\":[\"p1\"]}");
        assertThat(record.get("outcome").toString()).isEqualTo("{\"kind\":\"started\",\"partitions\":[\"p1\"]}");
        assertThat(record.get("handledAt").asString()).endsWith("Z");
        {
            var j = redis;
            var keys = new io.swale.store.redis.RedisKeys(props.redis().keyPrefix());
            int shard = io.swale.store.redis.RedisKeys.shardOf(key,
                    new io.swale.record.AdminRequest.Start(g, java.util.List.of(io.swale.graph.Partition.of("p1"))));
            assertThat(j.zscore(keys.expiry(shard), "req:" + key)).isNotNull();
            assertThat(j.get(keys.request(shard, key))).startsWith("{\"request\":");
        }
    }

    @Test
    void retriedRerunGetsItsSubmittedRunIdNotActive() {
        String g = unique("idem_rerun");
        api.publish(Graphs.chain(g, 2));
        api.start(g, "p");
        awaitSettled(g, "p");
        String key = unique("rerun");
        String path = "/api/v1/graphs/" + g + "/runs/p/nodes/n1/rerun";

        SwaleClient.Response first = api.postWith(path, "", "Idempotency-Key", key);
        SwaleClient.Response again = api.postWith(path, "", "Idempotency-Key", key);

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.body().get("runId").asString()).isEqualTo(g + "-p-n1-r1");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body().get("runId").asString()).isEqualTo(g + "-p-n1-r1");
        JsonNode record = api.get("/api/v1/requests/" + key).body();
        assertThat(record.get("outcome").toString()).isEqualTo("{\"kind\":\"rerun\",\"runId\":\"" + g + "-p-n1-r1\"}");
        awaitSettled(g, "p");
    }

    @Test
    void refusedCancelIsRecordedAndReplayedTheSame() {
        String g = unique("idem_cancel");
        api.publish(Graphs.chain(g, 1));
        api.start(g, "p");
        awaitSettled(g, "p");
        String key = unique("cancel");

        SwaleClient.Response first = api.postWith("/api/v1/graphs/" + g + "/runs/p/cancel", "", "Idempotency-Key", key);
        SwaleClient.Response again = api.postWith("/api/v1/graphs/" + g + "/runs/p/cancel", "", "Idempotency-Key", key);

        assertThat(first.status()).isEqualTo(409);
        assertThat(first.contentType()).startsWith("application/problem+json");
        assertThat(first.body().get("detail").asString()).contains(g).contains("p");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body().get("detail")).isEqualTo(first.body().get("detail"));
        assertThat(api.get("/api/v1/requests/" + key).body().get("outcome").get("kind").asString()).isEqualTo("refused");
    }

    /** Spec §7.12: a malformed record is permanent, "in a request: refused, reason = error text". Was: a bare 500. */
    @Test
    void aRequestMeetingAMalformedRunRecordIsRefusedNamingItAndRecorded() {
        String g = unique("idem_malformed");
        api.publish(Graphs.chain(g, 1));
        api.start(g, "p");
        awaitSettled(g, "p");
        String runKey = new io.swale.store.redis.RedisKeys(props.redis().keyPrefix())
                .run(new io.swale.store.RunKey(g, io.swale.graph.Partition.of("p")));
        String stored = redis.get(runKey);
        redis.set(runKey, "x");
        try {
            String key = unique("malformed");
            SwaleClient.Response first = api.postWith("/api/v1/graphs/" + g + "/runs/p/cancel", "", "Idempotency-Key", key);
            SwaleClient.Response again = api.postWith("/api/v1/graphs/" + g + "/runs/p/cancel", "", "Idempotency-Key", key);
            SwaleClient.Response view = api.get("/api/v1/graphs/" + g + "/runs/p");

            assertThat(first.status()).isEqualTo(409);
            assertThat(first.body().get("detail").asString()).contains(runKey).contains("malformed");
            assertThat(again.status()).isEqualTo(409);
            assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(api.get("/api/v1/requests/" + key).body().get("outcome").get("kind").asString())
                    .isEqualTo("refused");
            assertThat(view.status()).isEqualTo(500);
            assertThat(view.body().get("detail").asString()).as("named, not hidden").contains(runKey);
        } finally {
            redis.set(runKey, stored);
        }
    }

    /** A start meeting a malformed graph record is refused naming it, and recorded, as a rerun or a cancel is. */
    @Test
    void aStartMeetingAMalformedGraphRecordIsRefusedNamingItAndRecorded() {
        String g = unique("idem_graphrec");
        api.publish(Graphs.chain(g, 1));
        String records = new io.swale.store.redis.RedisKeys(props.redis().keyPrefix()).graphRecords();
        String stored = redis.hget(records, g);
        redis.hset(records, g, "x");
        try {
            String key = unique("graphrec");
            SwaleClient.Response first = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p\"]}",
                    "Idempotency-Key", key);
            SwaleClient.Response again = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p\"]}",
                    "Idempotency-Key", key);

            assertThat(first.status()).isEqualTo(409);
            assertThat(first.body().get("detail").asString()).contains(records).contains("malformed");
            assertThat(again.status()).isEqualTo(409);
            assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
            assertThat(api.get("/api/v1/requests/" + key).body().get("outcome").get("kind").asString())
                    .isEqualTo("refused");
        } finally {
            redis.hset(records, g, stored);
        }
        assertThat(api.get("/api/v1/graphs/" + g + "/runs").body().size()).as("nothing started").isZero();
    }

    @Test
    void keyReusedForAnotherRequestOrMalformedIsRejected() {
        String g = unique("idem_err");
        api.publish(Graphs.chain(g, 1));
        String key = unique("reuse");
        api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"a\"]}", "Idempotency-Key", key);

        SwaleClient.Response reused = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"b\"]}",
                "Idempotency-Key", key);
        SwaleClient.Response malformed = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"b\"]}",
                "Idempotency-Key", "not a key!");

        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.body().get("field").asString()).isEqualTo("Idempotency-Key");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.body().get("field").asString()).isEqualTo("Idempotency-Key");
        assertThat(api.get("/api/v1/graphs/" + g + "/runs").body().size()).isEqualTo(1);
        assertThat(api.get("/api/v1/requests/nosuchrequest").status()).isEqualTo(404);
        SwaleClient.Response badId = api.get("/api/v1/requests/bad%20id");
        assertThat(badId.status()).isEqualTo(400);
        assertThat(badId.body().get("field").asString()).isEqualTo("id");
    }

    @Test
    void anIdHeldByAnotherRequestStillInFlightRefusesADifferentOne() {
        String g = unique("idem_race");
        api.publish(Graphs.chain(g, 1));
        String key = unique("race");
        // a different request under this id has reserved it and not yet recorded its outcome (it is racing us)
        var inFlight = new io.swale.record.AdminRequest.Start(g, java.util.List.of(io.swale.graph.Partition.of("a")));
        assertThat(new io.swale.store.redis.RedisRequestStore(redis, props.redis().keyPrefix()).reserve(key, inFlight))
                .isTrue();

        SwaleClient.Response second = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"b\"]}",
                "Idempotency-Key", key);

        assertThat(second.status()).isEqualTo(422);
        assertThat(second.body().get("field").asString()).isEqualTo("Idempotency-Key");
        assertThat(api.get("/api/v1/graphs/" + g + "/runs").body().size()).as("nothing started").isZero();
        assertThat(api.get("/api/v1/requests/" + key).status()).isEqualTo(404);
    }

    @Test
    void aRetrySentWhileItsFirstTryIsHandledIsNotAppliedAgain() {
        String g = unique("idem_retry");
        api.publish(Graphs.chain(g, 1));
        String key = unique("retry");
        var store = new io.swale.store.redis.RedisRequestStore(redis, props.redis().keyPrefix());
        var start = new io.swale.record.AdminRequest.Start(g, java.util.List.of(io.swale.graph.Partition.of("p")));
        // the first try of this very request holds the id and has not recorded its outcome yet
        var first = store.hold(key, start, java.time.Duration.ofSeconds(60));
        assertThat(first).isInstanceOf(io.swale.store.RequestStore.Hold.Held.class);

        SwaleClient.Response retry = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p\"]}",
                "Idempotency-Key", key);

        assertThat(retry.status()).isEqualTo(409);
        assertThat(retry.body().get("title").asString()).isEqualTo("Request in progress");
        assertThat(retry.body().get("field").asString()).isEqualTo("Idempotency-Key");
        assertThat(api.get("/api/v1/graphs/" + g + "/runs").body().size()).as("nothing started").isZero();
        assertThat(api.get("/api/v1/requests/" + key).status()).isEqualTo(404);

        // the first try failed without a record and let go: the retry applies the request, once
        store.release(key, (io.swale.store.RequestStore.Hold.Held) first);
        SwaleClient.Response again = api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p\"]}",
                "Idempotency-Key", key);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body().get("started").toString()).isEqualTo("[\"p\"]");
        assertThat(store.hold(key, start, java.time.Duration.ofSeconds(60)))
                .as("the handling call let go of the id").isInstanceOf(io.swale.store.RequestStore.Hold.Held.class);
        awaitSettled(g, "p");
    }

    @Test
    void aHandlingRenewedOutlivesItsFirstTimeAndOnlyItsOwnHolderRenewsIt() {
        var store = new io.swale.store.redis.RedisRequestStore(redis, props.redis().keyPrefix());
        var keys = new io.swale.store.redis.RedisKeys(props.redis().keyPrefix());
        String key = unique("renew");
        var start = new io.swale.record.AdminRequest.Start(unique("g"), java.util.List.of(
                io.swale.graph.Partition.of("p")));
        var held = (io.swale.store.RequestStore.Hold.Held) store.hold(key, start, java.time.Duration.ofSeconds(10));
        assertThat(redis.pttl(keys.requestHandling(key))).isBetween(1L, 10_000L);

        assertThat(store.renew(key, held, java.time.Duration.ofMinutes(1))).isTrue();
        assertThat(redis.pttl(keys.requestHandling(key))).isGreaterThan(10_000L);
        assertThat(store.renew(key, new io.swale.store.RequestStore.Hold.Held("another call"),
                java.time.Duration.ofMinutes(5))).as("not its holder").isFalse();
        assertThat(redis.pttl(keys.requestHandling(key))).isBetween(10_001L, 60_000L);

        store.release(key, held);
        assertThat(store.renew(key, held, java.time.Duration.ofMinutes(1))).as("let go").isFalse();
        assertThat(redis.exists(keys.requestHandling(key))).isFalse();
    }

    @Test
    void requestWithoutKeyGetsAGeneratedUlid() {
        String g = unique("idem_ulid");
        api.publish(Graphs.chain(g, 1));
        SwaleClient.Response r = api.start(g, "p");
        String id = r.body().get("requestId").asString();
        assertThat(id).matches("[0-9A-HJKMNP-TV-Z]{26}");
        assertThat(api.get("/api/v1/requests/" + id).status()).isEqualTo(200);
        awaitSettled(g, "p");
    }
}
