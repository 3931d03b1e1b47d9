package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swale.record.RecordException;
import io.swale.store.InstanceStatus;
import io.swale.store.PendingInstance;
import io.swale.store.TaskInstance;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The per-instance document the scripts read: bytes as the scripts have always been given them. */
class InstanceCodecTest {
    @Test
    void aPendingInstanceKeepsItsStoredBytes() {
        assertThat(InstanceCodec.pending(new PendingInstance("load", Optional.of("s3://b/k"), "h1", 2, "etl", 3,
                OptionalLong.of(1_760_000_000_123_456L))))
                .isEqualTo("{\"state\":\"pending\",\"node\":\"load\",\"asset\":\"s3://b/k\",\"definition\":\"h1\","
                        + "\"rerun\":2,\"pool\":\"etl\",\"step\":0,\"attempt\":0,\"max\":3,\"token\":0,"
                        + "\"ready_us\":\"1760000000123456\"}");
        assertThat(InstanceCodec.pending(new PendingInstance("n", Optional.empty(), "h", 0, "default", 1)))
                .isEqualTo("{\"state\":\"pending\",\"node\":\"n\",\"definition\":\"h\",\"rerun\":0,"
                        + "\"pool\":\"default\",\"step\":0,\"attempt\":0,\"max\":1,\"token\":0}");
    }

    @Test
    void aPendingInstanceReadsBackWithWhatTheScriptsAdded() {
        String stored = InstanceCodec.pending(new PendingInstance("load", Optional.of("a1"), "h1", 2, "etl", 3))
                .replace("\"token\":0", "\"token\":0,\"dispatched\":17");
        TaskInstance i = InstanceCodec.decode("g-p-load-r2", stored);
        assertThat(i).isEqualTo(new TaskInstance("g-p-load-r2", InstanceStatus.PENDING, "load", Optional.of("a1"), "h1",
                2, "etl", 0, 0, 3, 0, Optional.empty(), Optional.empty(), 17, Optional.empty(), Optional.empty(),
                Optional.empty()));
    }

    @Test
    void aRunningInstanceReadsItsLeaseWorkerAndError() {
        TaskInstance i = InstanceCodec.decode("r", "{\"state\":\"running\",\"node\":\"n\",\"definition\":\"h\","
                + "\"rerun\":0,\"pool\":\"p\",\"step\":1,\"attempt\":2,\"max\":3,\"token\":5,\"lease\":900,"
                + "\"dispatched\":10,\"started\":20,\"err\":\"boom\",\"worker\":\"w1\"}");
        assertThat(i.status()).isEqualTo(InstanceStatus.RUNNING);
        assertThat(i.leaseUntilMs()).contains(900L);
        assertThat(i.startedMs()).contains(20L);
        assertThat(i.lastError()).contains("boom");
        assertThat(i.worker()).contains("w1");
        assertThat(i.token()).isEqualTo(5);
    }

    @Test
    void anUnknownStateIsARecordError() {
        assertThatThrownBy(() -> InstanceCodec.decode("r", "{\"state\":\"sleeping\"}"))
                .isInstanceOf(RecordException.class).hasMessageContaining("sleeping");
    }

    @Test
    void anInstanceReadsLenientlyAsTheScriptsWriteIt() {
        // cjson writes a large number in exponent form; fields the reader does not know are skipped
        TaskInstance i = InstanceCodec.decode("r", "{\"state\":\"pending\",\"node\":\"n\",\"lease\":1.7e+12,"
                + "\"future\":{\"a\":[1,2]},\"asset\":null,\"dispatched\":\"12\"}");
        assertThat(i.leaseUntilMs()).contains(1_700_000_000_000L);
        assertThat(i.asset()).isEmpty();
        assertThat(i.dispatchedMs()).isEqualTo(12);
        assertThat(i.maxAttempts()).isEqualTo(1);
        assertThat(i.definition()).isEmpty();
        assertThatThrownBy(() -> InstanceCodec.decode("r", "{\"state\":\"pending\"")).isInstanceOf(RecordException.class)
                .hasMessageContaining("instance r");
    }
}
