package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.RecordCodec;
import io.swale.store.TaskInput;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The stored task input: the submit script compares a resubmission's text with the stored one, so the text
 * must stay what it was (keys sorted at every depth), and it must read back to the same input.
 */
class TaskInputCodecTest {
    private static JsonNode json(String text) {
        return RecordCodec.JSON.readTree(text);
    }

    private static TaskInput sample() {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        inputs.put("extract", json("{\"rows\":3,\"path\":\"s3://b/k\"}"));
        inputs.put("probe", JsonNodeFactory.instance.nullNode());
        Map<String, TaskInput.Upstream> upstreams = new LinkedHashMap<>();
        upstreams.put("extract", new TaskInput.Upstream("succeeded", Optional.empty()));
        upstreams.put("probe", new TaskInput.Upstream("succeeded", Optional.empty()));
        upstreams.put("audit", new TaskInput.Upstream("failed", Optional.of("boom")));
        return new TaskInput("shell", json("{\"z\":{\"b\":1,\"a\":[{\"y\":1,\"x\":2}]},\"cmd\":\"true\"}"), inputs,
                upstreams);
    }

    @Test
    void theTextIsStableWithKeysSortedAtEveryDepth() {
        assertThat(TaskInputCodec.encode(sample())).isEqualTo("{\"inputs\":{\"extract\":{\"path\":\"s3://b/k\",\"rows\":3},"
                + "\"probe\":null},\"operator\":\"shell\",\"params\":{\"cmd\":\"true\",\"z\":{\"a\":[{\"x\":2,\"y\":1}],"
                + "\"b\":1}},\"upstreams\":{\"audit\":{\"error\":\"boom\",\"status\":\"failed\"},"
                + "\"extract\":{\"status\":\"succeeded\"},\"probe\":{\"status\":\"succeeded\"}}}");
    }

    @Test
    void anEqualInputInAnotherOrderHasTheSameText() {
        TaskInput a = sample();
        Map<String, TaskInput.Upstream> reversed = new LinkedHashMap<>();
        java.util.List<String> names = new java.util.ArrayList<>(a.upstreams().keySet());
        java.util.Collections.reverse(names);
        names.forEach(n -> reversed.put(n, a.upstreams().get(n)));
        TaskInput b = new TaskInput(a.operator(), json("{\"cmd\":\"true\",\"z\":{\"a\":[{\"x\":2,\"y\":1}],\"b\":1}}"),
                a.inputs(), reversed);
        assertThat(TaskInputCodec.encode(b)).isEqualTo(TaskInputCodec.encode(a));
    }

    @Test
    void anEncodedInputReadsBackEqual() {
        TaskInput decoded = TaskInputCodec.decode(TaskInputCodec.encode(sample())).orElseThrow();
        assertThat(decoded.operator()).isEqualTo("shell");
        assertThat(decoded.params()).isEqualTo(sample().params());
        assertThat(decoded.inputs()).isEqualTo(sample().inputs());
        assertThat(decoded.upstreams()).isEqualTo(sample().upstreams());
        assertThat(TaskInputCodec.encode(decoded)).isEqualTo(TaskInputCodec.encode(sample()));
    }

    @Test
    void anInputWithoutParamsKeepsANullParamsField() {
        TaskInput none = new TaskInput("noop", null, Map.of(), Map.of());
        assertThat(TaskInputCodec.encode(none))
                .isEqualTo("{\"inputs\":{},\"operator\":\"noop\",\"params\":null,\"upstreams\":{}}");
    }

    @Test
    void aStoredInputIsReadLenientlyAndATextThatIsNoObjectReadsAsNone() {
        TaskInput sparse = TaskInputCodec.decode("{\"operator\":\"noop\",\"inputs\":[1]}").orElseThrow();
        assertThat(sparse.operator()).isEqualTo("noop");
        assertThat(sparse.params().isMissingNode()).isTrue();
        assertThat(sparse.inputs()).isEmpty();
        assertThat(sparse.upstreams()).isEmpty();
        assertThat(TaskInputCodec.decode("{}").orElseThrow().operator()).isEmpty();
        assertThat(TaskInputCodec.decode("[1,2]")).isEmpty();
        assertThat(TaskInputCodec.decode("not json")).isEmpty();
    }
}
