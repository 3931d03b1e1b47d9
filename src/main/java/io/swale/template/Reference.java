package io.swale.template;

import java.util.List;
import java.util.Objects;

/** What a {@code {{ … }}} refers to (§8.7). */
public sealed interface Reference extends Part
        permits Reference.PartitionKey, Reference.RunId, Reference.RunSummary, Reference.Env, Reference.Upstream,
        Reference.ShellQuoted, Reference.Item, Reference.MapIndex {

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

    /** {@code item[.k1.k2…]}: the item of a mapped node's instance, or the value at a dotted path inside it. */
    record Item(List<String> path) implements Reference {
        public Item {
            path = List.copyOf(path);
        }

        public String dottedPath() {
            return String.join(".", path);
        }
    }

    /** {@code map.index}: the item's position in its array, from 0. */
    record MapIndex() implements Reference {}

    /**
     * {@code REF | sh}: the text of {@code reference} as one POSIX shell word in single quotes, so that a
     * value templated into a {@code shell} command is data, never code.
     */
    record ShellQuoted(Reference reference) implements Reference {
        public ShellQuoted {
            Objects.requireNonNull(reference, "reference");
            if (reference instanceof ShellQuoted) {
                throw new IllegalArgumentException("a reference is quoted once");
            }
        }

        /** {@code text} in single quotes, each {@code '} written {@code '\''} (close, escaped quote, reopen). */
        public static String quote(String text) {
            return "'" + text.replace("'", "'\\''") + "'";
        }
    }

    /** The reference a filter applies to, or this one. */
    default Reference unfiltered() {
        return this instanceof ShellQuoted q ? q.reference() : this;
    }
}
