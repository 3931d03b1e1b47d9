package io.swale.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.definition.CronCheck;
import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.definition.DefinitionLoader;
import io.swale.graph.MapSpec;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.operator.OperatorRegistry;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.store.InstanceStatus;
import io.swale.store.RunKey;
import io.swale.store.RunVersion;
import io.swale.store.RunView;
import io.swale.store.TaskInstance;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class MappedProgressTest {
    private static final RunKey KEY = new RunKey("g", Partition.of("p"));
    /** list → each, mapped over its output's `items`. */
    private static final Definition LIST_AND_EACH = new DefinitionLoader(OperatorRegistry.builtIn(),
            CronCheck.FIVE_FIELDS).load("""
            [graph]
            name = "g"
            [[node]]
            name = "list"
            operator = "noop"
            [[node]]
            name = "each"
            after = ["list"]
            operator = "noop"
            map = "{{ upstream.list.items }}"
            """, DefinitionFormat.TOML);

    /** Each item: its active instance of the highest rerun, else its current record, else unsubmitted. */
    @Test
    void eachItemShowsItsActiveInstanceElseItsCurrentRecordElseUnsubmitted() {
        Definition definition = LIST_AND_EACH;
        Node each = definition.graph().node("each").orElseThrow();
        NodeRecord list = new NodeRecord(NodeStatus.SUCCEEDED, KEY.runId("list", 0), definition.hash(), 0, 1,
                Optional.of(JsonMapper.builder().build().readTree("{\"items\": [10, 20, 30, 40]}")), false,
                Optional.empty());
        Map<String, TaskInstance> instances = new HashMap<>();
        for (TaskInstance i : new TaskInstance[] {instance(0, 0, InstanceStatus.FAILED),
                instance(0, 1, InstanceStatus.RUNNING), instance(0, 2, InstanceStatus.PENDING),
                instance(3, 0, InstanceStatus.PENDING)}) {
            instances.put(i.runId(), i);
        }
        NodeRecord done = new NodeRecord(NodeStatus.SUCCEEDED, KEY.runId(MapSpec.itemName("each", 1), 0),
                definition.hash(), 0, 2, Optional.empty(), false, Optional.empty());
        RunView view = new RunView(KEY, new RunVersion("1"), GraphRunRecord.started(definition.hash(), 0),
                Map.of(MappedNodes.itemField("each", 1).key(), done), instances);

        MappedProgress progress = MappedProgress.of(view, each, Map.of("list", list));

        assertThat(progress.total()).isEqualTo(4);
        assertThat(progress.active()).isEqualTo(2);
        assertThat(progress.done()).isEqualTo(1);
        assertThat(progress.succeeded()).isEqualTo(1);
        assertThat(progress.items()).containsExactly(
                new MappedProgress.Item(0, "pending", Optional.of(KEY.runId("each[0]", 2))),
                new MappedProgress.Item(1, "succeeded", Optional.of(KEY.runId("each[1]", 0))),
                new MappedProgress.Item(2, "unsubmitted", Optional.empty()),
                new MappedProgress.Item(3, "pending", Optional.of(KEY.runId("each[3]", 0))));
    }

    /**
     * docs/dynamic-graphs.md §7, "done = items with a current terminal record": an instance of an older generation
     * that a cancel is still stopping does not hide the item's current record. Was: shown as the item, counted active.
     */
    @Test
    void anOlderGenerationsInstanceStillStoppingDoesNotHideTheCurrentRecord() {
        Definition definition = LIST_AND_EACH;
        Node each = definition.graph().node("each").orElseThrow();
        NodeRecord list = new NodeRecord(NodeStatus.SUCCEEDED, KEY.runId("list", 0), definition.hash(), 0, 1,
                Optional.of(JsonMapper.builder().build().readTree("{\"items\": [10, 20]}")), false, Optional.empty());
        Map<String, TaskInstance> instances = new HashMap<>();
        for (TaskInstance i : new TaskInstance[] {instance(0, 0, InstanceStatus.CANCELLING),
                instance(0, 1, InstanceStatus.SUCCEEDED), instance(1, 1, InstanceStatus.SUCCEEDED)}) {
            instances.put(i.runId(), i);
        }
        Map<String, NodeRecord> records = new HashMap<>();
        for (int k = 0; k < 2; k++) {
            records.put(MappedNodes.itemField("each", k).key(), new NodeRecord(NodeStatus.SUCCEEDED,
                    KEY.runId(MapSpec.itemName("each", k), 1), definition.hash(), 1, 2, Optional.empty(), false,
                    Optional.empty()));
        }
        GraphRunRecord run = new GraphRunRecord(definition.hash(), 0, io.swale.record.RunState.ACTIVE,
                Optional.empty(), new java.util.TreeMap<>(Map.of("each", 1L, "each[]", 1L)));
        RunView view = new RunView(KEY, new RunVersion("1"), run, records, instances);

        MappedProgress progress = MappedProgress.of(view, each, Map.of("list", list));

        assertThat(progress.active()).isZero();
        assertThat(progress.done()).isEqualTo(2);
        assertThat(progress.items()).containsExactly(
                new MappedProgress.Item(0, "succeeded", Optional.of(KEY.runId("each[0]", 1))),
                new MappedProgress.Item(1, "succeeded", Optional.of(KEY.runId("each[1]", 1))));
    }

    private static TaskInstance instance(int index, long rerun, InstanceStatus status) {
        String node = MapSpec.itemName("each", index);
        return new TaskInstance(KEY.runId(node, rerun), status, node, Optional.empty(), "h", rerun, "default", 0, 1, 1,
                1, Optional.empty(), Optional.empty(), 0, Optional.empty(), Optional.empty(), Optional.empty());
    }
}
