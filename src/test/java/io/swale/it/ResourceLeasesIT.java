package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Leases on named resources end to end (docs/resources.md), on the embedded Kafka and Redis: capacity holds
 * across graphs, waiting holds no slot, a node needing two resources is not starved, and bad input is refused.
 */
class ResourceLeasesIT extends IntegrationTest {

    private static String node(String name, String leases, String command) {
        return """
                [[node]]
                name = "%s"
                operator = "shell"
                leases = [%s]
                [node.params]
                command = "%s"
                """.formatted(name, leases, command);
    }

    private JsonNode resource(String name) {
        return api.get("/api/v1/resources/" + name).body();
    }

    @Test
    void twoGraphsSharingACapacityOneResourceNeverOverlapAndWaitingHoldsNoSlot(@TempDir Path dir) throws Exception {
        Instant began = Instant.now();
        String res = unique("wh");
        Path log = dir.resolve("log");
        List<String> graphs = List.of(unique("ga"), unique("gb"));
        for (String g : graphs) {
            assertThat(api.publish("[graph]\nname = \"" + g + "\"\n"
                    + node("load", "\"" + res + "\"", LeaseLog.command(log, "{{ run.id }}", "sleep 0.02"))
                    + node("check", "\"" + res + "\"", LeaseLog.command(log, "{{ run.id }}", "sleep 0.02"))
                            .replace("operator = \"shell\"", "operator = \"shell\"\nafter = [\"load\"]")).status())
                    .isEqualTo(201);
        }
        int runs = 25;
        for (int p = 0; p < runs; p++) {
            for (String g : graphs) {
                api.start(g, "p" + p);
            }
        }
        // while the resource has a queue, a node without leases still runs: nobody waiting holds a slot
        await().atMost(Duration.ofSeconds(30)).until(() -> resource(res).get("waiting").size() >= 3);
        String free = unique("free");
        api.publish("[graph]\nname = \"" + free + "\"\n[[node]]\nname = \"n\"\noperator = \"noop\"\n");
        api.start(free, "p");
        assertThat(awaitSettled(free, "p").get("state").asString()).isEqualTo("complete");
        JsonNode queued = resource(res);
        Instant answered = Instant.now();
        assertThat(queued.get("waiting").size()).as("the queue was still there").isPositive();
        // times are RFC 3339, as in the rest of the API: a waiter joined the queue during this test, and a lease
        // lapses after this answer unless renewed (both within a second of this machine's clock, which Redis shares)
        queued.get("waiting").forEach(w -> assertThat(Instant.parse(w.get("queuedAt").asString()))
                .isBetween(began.minusSeconds(1), answered.plusSeconds(1)));
        queued.get("holders").forEach(h -> assertThat(Instant.parse(h.get("expiresAt").asString()))
                .isBetween(answered.minusSeconds(1), answered.plus(Duration.ofMinutes(10))));
        await().atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(250)).until(() -> {
            for (String g : graphs) {
                for (int p = 0; p < runs; p++) {
                    if (api.run(g, "p" + p).get("state").asString().equals("active")) {
                        return false;
                    }
                }
            }
            return true;
        });
        for (String g : graphs) {
            for (int p = 0; p < runs; p++) {
                assertThat(api.run(g, "p" + p).get("state").asString()).as(g + " p" + p).isEqualTo("complete");
            }
        }
        List<LeaseLog.Interval> ran = LeaseLog.read(log);
        assertThat(ran).hasSize(2 * runs * 2);
        for (int i = 1; i < ran.size(); i++) {
            assertThat(ran.get(i).start()).as("%s started before %s ended", ran.get(i).who(), ran.get(i - 1).who())
                    .isGreaterThanOrEqualTo(ran.get(i - 1).end());
        }
        JsonNode after = resource(res);
        assertThat(after.get("held").asInt()).isZero();
        assertThat(after.get("waiting").size()).isZero();
    }

    @Test
    void aCapacityTwoResourceRunsAtMostTwoAtOnceAndAllComplete(@TempDir Path dir) throws Exception {
        String res = unique("pair");
        assertThat(api.put("/api/v1/resources/" + res, "{\"capacity\": 2}").status()).isEqualTo(200);
        assertThat(resource(res).get("capacity").asInt()).isEqualTo(2);
        Path log = dir.resolve("log");
        String g = unique("two");
        StringBuilder toml = new StringBuilder("[graph]\nname = \"" + g + "\"\n");
        int nodes = 8;
        for (int i = 0; i < nodes; i++) {
            toml.append(node("n" + i, "\"" + res + "\"", LeaseLog.command(log, "n" + i, "sleep 0.4")));
        }
        assertThat(api.publish(toml.toString()).status()).isEqualTo(201);
        api.start(g, "p");
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> !api.run(g, "p").get("state").asString().equals("active"));
        assertThat(api.run(g, "p").get("state").asString()).isEqualTo("complete");
        List<LeaseLog.Interval> ran = LeaseLog.read(log);
        assertThat(ran).extracting(LeaseLog.Interval::who).containsExactlyInAnyOrder(
                "n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7");
        // the default pool has 4 slots here: without the lease, four would run at once
        assertThat(LeaseLog.mostAtOnce(ran)).isEqualTo(2);
        // every grant timed its wait; the gauges follow the resource (read every few reap passes)
        assertThat(api.text("/actuator/prometheus")).containsPattern("swale_resources_wait_seconds_count\\{resource=\""
                + res + "\"} 8(\\.0)?\n");
        await().atMost(Duration.ofSeconds(30)).until(() -> java.util.regex.Pattern.compile("swale_resources_held\\{resource=\""
                + res + "\"} 0(\\.0)?\n").matcher(api.text("/actuator/prometheus")).find());
        assertThat(api.text("/actuator/prometheus")).containsPattern("swale_resources_waiting\\{resource=\"" + res
                + "\"} 0(\\.0)?\n");
    }

    @Test
    void aNodeNeedingTwoResourcesIsGrantedBeforeLaterSingleResourceNodes(@TempDir Path dir) throws Exception {
        String a = unique("ra");
        String b = unique("rb");
        Path log = dir.resolve("log");
        ReleaseGates.Gate release = gates.gate("release-b");
        String holdB = unique("holdb");
        String single = unique("single");
        String both = unique("both");
        // holds b until the test lets it go, so `both` must wait while a is free
        api.publish("[graph]\nname = \"" + holdB + "\"\n" + node("h", "\"" + b + "\"",
                LeaseLog.command(log, "holdb", release.awaitCommand())));
        api.publish("[graph]\nname = \"" + single + "\"\n" + node("s", "\"" + a + "\"",
                LeaseLog.command(log, "{{ partition }}", "sleep 0.1")));
        api.publish("[graph]\nname = \"" + both + "\"\n" + node("ab", "\"" + a + "\", \"" + b + "\"",
                LeaseLog.command(log, "both", "sleep 0.1")));
        api.start(holdB, "p");
        await().atMost(Duration.ofSeconds(30)).until(() -> resource(b).get("held").asInt() == 1);
        for (int i = 0; i < 3; i++) {
            api.start(single, "early" + i);
        }
        api.start(both, "p");
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            JsonNode w = resource(b).get("waiting");
            return w.size() == 1 && w.get(0).get("runId").asString().startsWith(both + "-");
        });
        int later = 10;
        for (int i = 0; i < later; i++) {
            api.start(single, "late" + i);
        }
        // the late ones queue behind `both` on a, although a lease on a is free most of this time
        await().atMost(Duration.ofSeconds(30)).until(() -> resource(a).get("waiting").size() >= later);
        JsonNode view = SwaleClient.node(api.run(both, "p"), "ab").get("instance");
        assertThat(view.get("waitingText").asString()).isEqualTo("waiting for lease `" + a + "`, `" + b + "`");
        release.open();

        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100)).until(() -> {
            for (int i = 0; i < later; i++) {
                if (api.run(single, "late" + i).get("state").asString().equals("active")) {
                    return false;
                }
            }
            return !api.run(both, "p").get("state").asString().equals("active");
        });
        List<LeaseLog.Interval> ran = LeaseLog.read(log);
        long bothStarted = ran.stream().filter(i -> i.who().equals("both")).findFirst().orElseThrow().start();
        List<String> lateBeforeBoth = new ArrayList<>();
        for (LeaseLog.Interval i : ran) {
            if (i.who().startsWith("late") && i.start() < bothStarted) {
                lateBeforeBoth.add(i.who());
            }
        }
        assertThat(lateBeforeBoth).as("later single-resource nodes granted before the two-resource node").isEmpty();
        assertThat(ran.stream().filter(i -> i.who().startsWith("late")).count()).isEqualTo(later);
    }

    private static String mapped(String g, String leases, String files, String command) {
        return mappedOver(g, leases, "{\"files\": [" + files + "]}", command);
    }

    /** `list` prints {@code listOutput}; `each` maps over its `files` with {@code leases}. */
    private static String mappedOver(String g, String leases, String listOutput, String command) {
        return """
                [graph]
                name = "%s"
                [[node]]
                name = "list"
                operator = "shell"
                [node.params]
                command = '''printf '%%s' '%s' '''
                [[node]]
                name = "each"
                after = ["list"]
                operator = "shell"
                map = "{{ upstream.list.files }}"
                leases = [%s]
                [node.params]
                command = "%s"
                """.formatted(g, listOutput, leases, command);
    }

    @Test
    void eachItemOfAMappedNodeTakesItsNodesLeasesRenderedWithTheItem(@TempDir Path dir) throws Exception {
        String res = unique("item");
        Path log = dir.resolve("log");
        String g = unique("mapleases");
        // three items lease `<res>-x`, one `<res>-y`: the x items never overlap although 4 slots are free
        assertThat(api.publish(mapped(g, "\"" + res + "-{{ item }}\"", "\"x\", \"x\", \"y\", \"x\"",
                LeaseLog.command(log, "i{{ map.index }}-{{ item }}", "sleep 0.3"))).status()).isEqualTo(201);
        api.start(g, "p");
        await().atMost(Duration.ofSeconds(60)).until(() -> !api.run(g, "p").get("state").asString().equals("active"));
        assertThat(api.run(g, "p").get("state").asString()).isEqualTo("complete");
        List<LeaseLog.Interval> ran = LeaseLog.read(log);
        assertThat(ran).extracting(LeaseLog.Interval::who).containsExactlyInAnyOrder("i0-x", "i1-x", "i2-y", "i3-x");
        List<LeaseLog.Interval> x = ran.stream().filter(i -> i.who().endsWith("-x")).toList();
        assertThat(LeaseLog.mostAtOnce(x)).as("items leasing `%s-x` at once", res).isEqualTo(1);
        assertThat(resource(res + "-x").get("held").asInt()).isZero();
        // the wait timer follows the lease as written: one series for the template, none per rendered name
        String metrics = api.text("/actuator/prometheus");
        assertThat(metrics).containsPattern("swale_resources_wait_seconds_count\\{resource=\""
                + java.util.regex.Pattern.quote(res + "-{{ item }}") + "\"} 4(\\.0)?\n");
        assertThat(metrics).doesNotContain("swale_resources_wait_seconds_count{resource=\"" + res + "-x\"}");
    }

    /** Was: each item's stored input lacked the map's source unless its params named it, so every item failed. */
    @Test
    void aMappedNodesLeaseMayReadTheMapsSource(@TempDir Path dir) throws Exception {
        String res = unique("source");
        Path log = dir.resolve("log");
        String g = unique("mapsource");
        assertThat(api.publish(mappedOver(g, "\"" + res + "-{{ upstream.list.db }}\"",
                "{\"files\": [\"a\", \"b\", \"c\"], \"db\": \"main\"}",
                LeaseLog.command(log, "i{{ map.index }}", "sleep 0.2"))).status()).isEqualTo(201);
        api.start(g, "p");
        assertThat(awaitSettled(g, "p").get("state").asString()).isEqualTo("complete");
        List<LeaseLog.Interval> ran = LeaseLog.read(log);
        assertThat(ran).extracting(LeaseLog.Interval::who).containsExactlyInAnyOrder("i0", "i1", "i2");
        assertThat(LeaseLog.mostAtOnce(ran)).as("items leasing `%s-main` at once", res).isEqualTo(1);
    }

    @Test
    void cancelledItemsWaitingForALeaseLeaveTheQueueAtOnce() throws Exception {
        String res = unique("itemq");
        ReleaseGates.Gate release = gates.gate("release");
        String hold = unique("holditem");
        api.publish("[graph]\nname = \"" + hold + "\"\n" + node("h", "\"" + res + "\"",
                release.awaitCommand() + "; printf '{}'"));
        api.start(hold, "p");
        await().atMost(Duration.ofSeconds(30)).until(() -> resource(res).get("held").asInt() == 1);
        String g = unique("mapq");
        assertThat(api.publish(mapped(g, "\"" + res + "\"", "1, 2, 3", "printf '{}'")).status()).isEqualTo(201);
        api.start(g, "p");
        await().atMost(Duration.ofSeconds(30)).until(() -> resource(res).get("waiting").size() == 3);
        // each item is an instance of its own, and the run view says what it waits for
        JsonNode items = SwaleClient.node(api.run(g, "p"), "each").get("items").get("list");
        assertThat(items.valueStream().map(i -> i.get("waitingText").asString()))
                .containsOnly("waiting for lease `" + res + "`").hasSize(3);
        assertThat(api.cancel(g, "p").status()).isEqualTo(200);
        // the holder still holds: nothing is released, so only the cancel can empty the queue
        await().atMost(Duration.ofSeconds(10)).until(() -> resource(res).get("waiting").isEmpty());
        assertThat(resource(res).get("held").asInt()).isEqualTo(1);
        release.open();
        assertThat(awaitSettled(hold, "p").get("state").asString()).isEqualTo("complete");
        assertThat(api.run(g, "p").get("state").asString()).isEqualTo("cancelled");
    }

    @Test
    void aResourceNameWithASlashCanBeDeclaredAndRead() {
        String res = "db/" + unique("main");
        SwaleClient.Response put = api.put("/api/v1/resources/" + res, "{\"capacity\": 3}");
        assertThat(put.status()).isEqualTo(200);
        assertThat(put.body().get("name").asString()).isEqualTo(res);
        JsonNode read = resource(res);
        assertThat(read.get("name").asString()).isEqualTo(res);
        assertThat(read.get("capacity").asInt()).isEqualTo(3);
        assertThat(read.get("declared").asBoolean()).isTrue();
        // the list is still its own endpoint, and a bad name after the slash is still refused by name
        assertThat(api.get("/api/v1/resources").body().get("resources")).anyMatch(r -> r.get("name").asString().equals(res));
        SwaleClient.Response bad = api.put("/api/v1/resources/db/bad%20name", "{\"capacity\": 2}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().get("detail").asString()).contains("`db/bad name`");
    }

    @Test
    void badCapacitiesAndNamesAreRefusedAndNothingIsWritten() {
        String res = unique("bad");
        for (String body : List.of("{\"capacity\": -1}", "{\"capacity\": 0}", "{\"capacity\": 1.5}",
                "{\"capacity\": \"2\"}", "{}", "[]", "{\"capacity\": 99999999999}")) {
            SwaleClient.Response r = api.put("/api/v1/resources/" + res, body);
            assertThat(r.status()).as(body).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.body().get("detail").asString()).as(body).contains("resource `" + res + "`");
        }
        assertThat(api.put("/api/v1/resources/" + res, "{\"capacity\": -3}").body().get("detail").asString())
                .contains("from 1 to 1000000, got -3");
        JsonNode after = resource(res);
        assertThat(after.get("declared").asBoolean()).as("nothing half-written").isFalse();
        assertThat(after.get("capacity").asInt()).isEqualTo(1);
        SwaleClient.Response badName = api.put("/api/v1/resources/bad%20name", "{\"capacity\": 2}");
        assertThat(badName.status()).isEqualTo(400);
        assertThat(badName.body().get("detail").asString()).contains("invalid resource name `bad name`");
        assertThat(api.get("/api/v1/resources/bad%20name").status()).isEqualTo(400);
        JsonNode list = api.get("/api/v1/resources").body().get("resources");
        for (JsonNode r : list) {
            assertThat(r.get("name").asString()).isNotEqualTo(res).isNotEqualTo("bad name");
        }
    }

    @Test
    void aLeaseThatCannotBeRenderedFailsItsNodeNamingTheLease() {
        String g = unique("render");
        assertThat(api.publish("""
                [graph]
                name = "%s"
                [[node]]
                name = "up"
                operator = "shell"
                [node.params]
                command = "printf '{\\"agent\\": \\"has space\\"}'"
                [[node]]
                name = "down"
                operator = "shell"
                after = ["up"]
                leases = ["agent:{{ upstream.up.agent }}"]
                [node.params]
                command = "printf '{}'"
                """.formatted(g)).status()).isEqualTo(201);
        api.start(g, "p");
        JsonNode run = awaitSettled(g, "p");
        assertThat(run.get("state").asString()).isEqualTo("failed");
        JsonNode down = SwaleClient.node(run, "down").get("record");
        assertThat(down.get("status").asString()).isEqualTo("failed");
        assertThat(down.get("error").asString()).contains("node `down`", "lease `agent:{{ upstream.up.agent }}`",
                "`agent:has space`");
        assertThat(SwaleClient.node(run, "down").get("attempts")).hasSize(1);
    }
}
