package io.swale.operator;

import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/** How one attempt ended. */
public sealed interface OperatorResult {
    /**
     * The instance ends succeeded with this output (JSON null for none). {@code outputOmitted}: the output was too
     * large to hold, so its record says so instead of carrying it (§5.4); the output is then JSON null.
     */
    record Succeeded(JsonNode output, boolean outputOmitted) implements OperatorResult {
        public Succeeded {
            if (outputOmitted && !output.isNull()) {
                throw new IllegalArgumentException("an omitted output has no value");
            }
        }

        public Succeeded(JsonNode output) {
            this(output, false);
        }

        /** Success whose output was too large to hold. */
        public static Succeeded omitted() {
            return new Succeeded(NullNode.getInstance(), true);
        }
    }

    /** The instance ends failed: no retry, no dead letter. */
    record Failed(String reason) implements OperatorResult {}

    /** The step ends; a next step follows after {@code delay} with {@code state}, holding no worker. */
    record Continue(JsonNode state, Duration delay) implements OperatorResult {}

    /** Retry the step with backoff while attempts remain. */
    record TransientError(String message) implements OperatorResult {}

    /** Dead letter at once; the instance ends failed. */
    record PermanentError(String message) implements OperatorResult {}
}
