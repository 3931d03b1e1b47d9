package io.swale.kafka;

import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * One record of a dead-letter topic.
 *
 * @param headers text headers (stack traces left out)
 * @param error the failure: the swale.error header, Spring's exception message header, or last_error
 */
public record DeadLetter(int partition, long offset, long timestampMs, Optional<String> key,
        Map<String, String> headers, Optional<JsonNode> value, String error) {

    /** {@code <partition>-<offset>}: names the letter within its topic. */
    public String id() {
        return partition + "-" + offset;
    }

    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name));
    }
}
