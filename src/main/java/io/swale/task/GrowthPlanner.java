package io.swale.task;

import tools.jackson.databind.JsonNode;

/**
 * Decides what a succeeded output's declared growth (docs/dynamic-graphs.md §8) does to the record written with
 * it: nothing, a growth stored with the record, or a failed record naming every fault.
 */
public interface GrowthPlanner {
    /** The outcome for one output. */
    sealed interface Plan {
        /** No growth declared (or none this instance may declare): the record is written as it is. */
        record None() implements Plan {}

        /** A checked growth, stored with the record in one script. */
        record Grow(String stored) implements Plan {}

        /** A bad growth: the node ends failed, permanently, with {@code error} (one line per fault). */
        record Fail(String error) implements Plan {}
    }

    Plan plan(TaskIdentity identity, JsonNode output);

    /** Reads no growth: a store or process without declared growth. */
    GrowthPlanner NONE = (identity, output) -> new Plan.None();
}
