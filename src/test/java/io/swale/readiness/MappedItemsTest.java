package io.swale.readiness;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.graph.MapSpec;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The pure rules of a mapped node: the source, current items, rerun counts and the derived record. */
class MappedItemsTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final MapSpec SPEC = new MapSpec("{{ upstream.list.files }}", "list", List.of("files"), 3, 3);

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    private static NodeRecord upstream(String output) {
        return new NodeRecord(NodeStatus.SUCCEEDED, "g-p-list-r0", "h", 0, 1, Optional.of(json(output)), false,
                Optional.empty());
    }

    private static NodeRecord item(NodeStatus status, long rerun, String output) {
        return new NodeRecord(status, "g-p-each[x]-r" + rerun, "h", rerun, 10 + rerun,
                Optional.ofNullable(output).map(MappedItemsTest::json), false,
                status == NodeStatus.FAILED ? Optional.of("exit 3") : Optional.empty());
    }

    private static GraphRunRecord run(String... expected) {
        TreeMap<String, Long> e = new TreeMap<>();
        for (int i = 0; i < expected.length; i += 2) {
            e.put(expected[i], Long.parseLong(expected[i + 1]));
        }
        return new GraphRunRecord("h", 0, RunState.ACTIVE, Optional.empty(), e);
    }

    private static String error(MappedItems.Source s) {
        return ((MappedItems.Source.Invalid) s).error();
    }

    @Test
    void theSourceIsTheArrayAtThePathOrAnErrorNamingTheNodeAndWhatWasFound() {
        assertThat(MappedItems.source("each", SPEC, Optional.of(upstream("{\"files\": [1, \"b\"]}"))))
                .isEqualTo(new MappedItems.Source.Items(List.of(json("1"), json("\"b\""))));
        assertThat(error(MappedItems.source("each", SPEC, Optional.of(upstream("{\"files\": {\"a\": 1}}")))))
                .isEqualTo("node `each`: the map source `{{ upstream.list.files }}` must hold a JSON array, found an object");
        assertThat(error(MappedItems.source("each", SPEC, Optional.of(upstream("{\"files\": \"a\"}")))))
                .endsWith("found a string");
        assertThat(error(MappedItems.source("each", SPEC, Optional.of(upstream("{\"other\": []}")))))
                .contains("is missing (path `files` of `list`)");
        assertThat(error(MappedItems.source("each", SPEC, Optional.empty()))).contains("has no succeeded record of `list`");
        assertThat(error(MappedItems.source("each", SPEC, Optional.of(upstream("{\"files\": [1, 2, 3, 4]}")))))
                .isEqualTo("node `each`: the map source `{{ upstream.list.files }}` holds 4 items, more than max_map 3");
    }

    @Test
    void aGenerationFloorOrAnItemsOwnExpectationMakesOlderItemRecordsStale() {
        NodeRecord r0 = item(NodeStatus.SUCCEEDED, 0, "1");
        assertThat(MappedItems.isCurrent(run(), "each", 0, r0)).isTrue();
        assertThat(MappedItems.isCurrent(run("each[]", "2"), "each", 0, r0)).isFalse();
        assertThat(MappedItems.isCurrent(run("each[0]", "1"), "each", 0, r0)).isFalse();
        assertThat(MappedItems.isCurrent(run("each[1]", "1"), "each", 0, r0)).isTrue();
        assertThat(MappedItems.nextRerun(run("each[]", "2"), "each", 0, Optional.of(r0))).isEqualTo(2);
        assertThat(MappedItems.nextRerun(run(), "each", 0, Optional.of(item(NodeStatus.FAILED, 0, null)))).isEqualTo(1);
        assertThat(MappedItems.nextRerun(run(), "each", 4, Optional.empty())).isZero();
    }

    @Test
    void theDerivedRecordSucceedsWithTheListOrFailsNamingTheFirstFailedItem() {
        NodeRecord ok = MappedItems.derive(run(), "each", "g-p-each-r",
                List.of(item(NodeStatus.SUCCEEDED, 0, "{\"a\": 1}"), item(NodeStatus.SUCCEEDED, 0, null)));
        assertThat(ok.status()).isEqualTo(NodeStatus.SUCCEEDED);
        assertThat(ok.output().orElseThrow().toString()).isEqualTo("[{\"a\":1},null]");
        assertThat(ok.rerun()).isZero();
        assertThat(ok.runId()).isEqualTo("g-p-each-r0");
        assertThat(ok.terminatedAtMs()).isEqualTo(10);

        NodeRecord failed = MappedItems.derive(run(), "each", "g-p-each-r", List.of(item(NodeStatus.SUCCEEDED, 0, "1"),
                item(NodeStatus.CANCELLED, 0, null), item(NodeStatus.FAILED, 0, null)));
        assertThat(failed.status()).isEqualTo(NodeStatus.FAILED);
        assertThat(failed.error()).contains("1 of 3 items failed; first: [2] exit 3");
        assertThat(failed.output()).isEmpty();

        NodeRecord cancelled = MappedItems.derive(run(), "each", "g-p-each-r",
                List.of(item(NodeStatus.SUCCEEDED, 0, "1"), item(NodeStatus.CANCELLED, 0, null)));
        assertThat(cancelled.status()).isEqualTo(NodeStatus.CANCELLED);
    }

    @Test
    void theDerivedRerunGrowsByOnePerItemRerunAndPastEveryItemAtANewGeneration() {
        List<NodeRecord> first = List.of(item(NodeStatus.SUCCEEDED, 0, "1"), item(NodeStatus.FAILED, 0, null));
        assertThat(MappedItems.derivedRerun(run(), "each", first)).isZero();
        // item 1 rerun once: the node's record must move from 0 to 1
        List<NodeRecord> second = List.of(item(NodeStatus.SUCCEEDED, 0, "1"), item(NodeStatus.SUCCEEDED, 1, "2"));
        assertThat(MappedItems.derivedRerun(run("each", "1", "each[1]", "1"), "each", second)).isEqualTo(1);
        // a whole rerun: floor 2, every item at 2
        List<NodeRecord> third = List.of(item(NodeStatus.SUCCEEDED, 2, "1"), item(NodeStatus.SUCCEEDED, 2, "2"));
        assertThat(MappedItems.derivedRerun(run("each", "2", "each[]", "2"), "each", third)).isEqualTo(2);
        // then item 0 again: 3
        List<NodeRecord> fourth = List.of(item(NodeStatus.SUCCEEDED, 3, "1"), item(NodeStatus.SUCCEEDED, 2, "2"));
        assertThat(MappedItems.derivedRerun(run("each", "3", "each[]", "2", "each[0]", "3"), "each", fourth))
                .isEqualTo(3);
        // an empty or failed source is at the floor or the node's own expectation
        assertThat(MappedItems.empty(run("each", "4", "each[]", "4"), "each", "g-p-each-r", 5).rerun()).isEqualTo(4);
        assertThat(MappedItems.empty(run(), "each", "g-p-each-r", 5).output().orElseThrow().toString()).isEqualTo("[]");
    }
}
