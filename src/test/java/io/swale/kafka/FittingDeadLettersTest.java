package io.swale.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** A dead letter always fits the producer's request limit, and says what it cut. */
class FittingDeadLettersTest {
    private static final int BUDGET = 1024 * 1024 - FittingDeadLetters.OVERHEAD_BYTES;

    @Test
    void smallLettersAreSentAsTheyAre() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("swale.error", bytes("not JSON"));
        var fitted = FittingDeadLetters.fit(headers, "g", bytes("{\"graph\":1}"), BUDGET);
        assertThat(fitted.headers().toArray()).hasSize(1);
        assertThat(fitted.headers().lastHeader(FittingDeadLetters.TRUNCATED_HEADER)).isNull();
        assertThat(fitted.key()).isEqualTo("g");
        assertThat(fitted.value()).isEqualTo(bytes("{\"graph\":1}"));
    }

    @Test
    void errorHeadersAndTheValueAreCutToFitWithAMarker() {
        String key150k = "é".repeat(75 * 1024);
        RecordHeaders headers = new RecordHeaders();
        headers.add("swale.error", bytes("invalid partition key " + key150k));
        headers.add("kafka_dlt-exception-message", bytes(("Listener failed; " + key150k).repeat(2)));
        headers.add("kafka_dlt-exception-stacktrace", bytes(("at x " + key150k + "\n").repeat(6)));
        byte[] value = new byte[1024 * 1024];
        var fitted = FittingDeadLetters.fit(headers, "k".repeat(100_000), value, BUDGET);

        int total = fitted.key().getBytes(StandardCharsets.UTF_8).length + fitted.value().length;
        for (Header h : fitted.headers()) {
            assertThat(h.value().length).as(h.key()).isLessThanOrEqualTo(FittingDeadLetters.MAX_HEADER_BYTES);
            total += h.key().length() + h.value().length;
        }
        assertThat(total).isLessThanOrEqualTo(BUDGET);
        String error = new String(fitted.headers().lastHeader("swale.error").value(), StandardCharsets.UTF_8);
        assertThat(error).startsWith("invalid partition key éé").endsWith("[truncated, "
                + bytes("invalid partition key " + key150k).length + " bytes in all]").doesNotContain("\uFFFD");
        assertThat(new String(fitted.headers().lastHeader(FittingDeadLetters.TRUNCATED_HEADER).value(),
                StandardCharsets.UTF_8)).contains("header swale.error of", "header kafka_dlt-exception-stacktrace",
                "key of 100000 bytes", "value of 1048576 bytes");
    }

    @Test
    void cutTextKeepsWholeCharacters() {
        byte[] cut = FittingDeadLetters.cutText(bytes("ab" + "€".repeat(100)), 60);
        assertThat(cut.length).isLessThanOrEqualTo(60);
        assertThat(new String(cut, StandardCharsets.UTF_8)).startsWith("ab€").doesNotContain("\uFFFD");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
