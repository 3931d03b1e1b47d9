package io.swale.template;

import java.util.List;
import java.util.Objects;

/** What a {@code {{ … }}} refers to (§8.7). */
public sealed interface Reference extends Part
        permits Reference.PartitionKey, Reference.RunId, Reference.RunSummary, Reference.Env, Reference.Upstream {

    /** {@code partition}: the partition key. */
    record PartitionKey() implements Reference {}

    /** {@code run.id}: the run id. */
    record RunId() implements Reference {}

    /** {@code run.summary}: JSON text describing the node and its upstreams. */
    record RunSummary() implements Reference {}

    /** {@code env.NAME}: an environment variable of the rendering process. */
    record Env(String name) implements Reference {
        public Env {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code upstream.NODE[.k1.k2…]}: an upstream's output, or the value at a dotted path inside it. */
    record Upstream(String node, List<String> path) implements Reference {
        public Upstream {
            Objects.requireNonNull(node, "node");
            path = List.copyOf(path);
        }

        /** The path as written, e.g. {@code rows.0.key}; empty for the whole output. */
        public String dottedPath() {
            return String.join(".", path);
        }
    }
}
