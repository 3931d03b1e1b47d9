package io.swale.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.record.RecordCodec;
import io.swale.store.AttemptRecord;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The attempt history as the scripts append it. */
class AttemptCodecTest {
    @Test
    void theScriptsArrayReadsAsAttemptsOldestFirst() {
        String stored = "[{\"attempt\":1,\"step\":0,\"worker\":\"w1\",\"started_ms\":10,\"ended_ms\":20,"
                + "\"outcome\":\"retry\",\"error\":\"boom\"},{\"attempt\":1,\"step\":0,\"started_ms\":30,"
                + "\"ended_ms\":40,\"outcome\":\"released\"}]";
        List<AttemptRecord> all = AttemptCodec.parseAll(stored);
        assertThat(all).containsExactly(
                new AttemptRecord(1, 0, Optional.of("w1"), 10, 20, "retry", Optional.of("boom")),
                new AttemptRecord(1, 0, Optional.empty(), 30, 40, "released", Optional.empty()));
        assertThat(all.get(1).counted()).isFalse();
    }

    @Test
    void theDeadLetterFormReadsBackEqual() {
        List<AttemptRecord> all = List.of(new AttemptRecord(2, 1, Optional.of("w"), 1, 2, "failed", Optional.of("x")),
                new AttemptRecord(3, 1, Optional.empty(), 3, 4, "lease_expired", Optional.empty()));
        assertThat(AttemptCodec.parseAll(RecordCodec.text(AttemptRecord.toJson(all)))).isEqualTo(all);
    }

    @Test
    void aMissingOrMalformedHistoryReadsAsNone() {
        assertThat(AttemptCodec.parseAll(null)).isEmpty();
        assertThat(AttemptCodec.parseAll("")).isEmpty();
        assertThat(AttemptCodec.parseAll("{\"attempt\":1}")).isEmpty();
        assertThat(AttemptCodec.parseAll("[1")).isEmpty();
    }
}
