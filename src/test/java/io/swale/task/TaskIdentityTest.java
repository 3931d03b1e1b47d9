package io.swale.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.graph.Partition;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A dispatch's identity headers: what is written reads back, and a rerun that is not a count is permanent. */
class TaskIdentityTest {
    private static final TaskIdentity ID = new TaskIdentity("g", Partition.of("20240102"), "n", Optional.of("g_a"),
            "abc123", 999_999_999_999_999_999L);

    @Test
    void headersReadBackToTheSameIdentity() {
        assertThat(TaskIdentity.fromHeaders(reader(text(ID.headers())))).isEqualTo(ID);
        TaskIdentity task = new TaskIdentity("g", Partition.NONE, "n", Optional.empty(), "abc123", 0);
        assertThat(TaskIdentity.fromHeaders(reader(text(task.headers())))).isEqualTo(task);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-1", "+1", "1a", " 1", "1.0", "1000000000000000000", "\uFF11"})
    void aRerunThatIsNotOneToEighteenDigitsIsMalformed(String rerun) {
        Map<String, String> headers = text(ID.headers());
        headers.put(TaskIdentity.RERUN, rerun);
        assertThatThrownBy(() -> TaskIdentity.fromHeaders(reader(headers)))
                .isInstanceOf(SwaleException.Malformed.class)
                .hasMessageContaining("`" + TaskIdentity.RERUN + "` is not a decimal count");
    }

    @Test
    void aLeaseWaiterWithABadRerunDecodesToNothing() {
        String good = new LeaseWaiter("p", ID).encode();
        assertThat(LeaseWaiter.decode(good)).isPresent();
        assertThat(LeaseWaiter.decode(good.replace("999999999999999999", "99x"))).isEmpty();
    }

    private static Map<String, String> text(Map<String, byte[]> headers) {
        Map<String, String> out = new HashMap<>();
        headers.forEach((k, v) -> out.put(k, new String(v, StandardCharsets.UTF_8)));
        return out;
    }

    private static Function<String, Optional<String>> reader(Map<String, String> headers) {
        return name -> Optional.ofNullable(headers.get(name));
    }
}
