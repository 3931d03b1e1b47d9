package io.swale.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** A record's headers as UTF-8 text by name, the shape the message parsers of the core take. */
final class RecordHeaders {
    private RecordHeaders() {}

    static Function<String, Optional<String>> of(ConsumerRecord<?, ?> record) {
        return name -> {
            Header h = record.headers().lastHeader(name);
            return h == null || h.value() == null ? Optional.empty()
                    : Optional.of(new String(h.value(), StandardCharsets.UTF_8));
        };
    }
}
