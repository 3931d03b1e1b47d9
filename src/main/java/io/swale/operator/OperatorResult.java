package io.swale.operator;

import java.time.Duration;
import tools.jackson.databind.JsonNode;

/** How one attempt ended. */
public sealed interface OperatorResult {
    /** The instance ends succeeded with this output (JSON null for none). */
    record Succeeded(JsonNode output) implements OperatorResult {}

    /** The instance ends failed: no retry, no dead letter. */
    record Failed(String reason) implements OperatorResult {}

    /** The step ends; a next step follows after {@code delay} with {@code state}, holding no worker. */
    record Continue(JsonNode state, Duration delay) implements OperatorResult {}

    /** Retry the step with backoff while attempts remain. */
    record TransientError(String message) implements OperatorResult {}

    /** Dead letter at once; the instance ends failed. */
    record PermanentError(String message) implements OperatorResult {}
}
