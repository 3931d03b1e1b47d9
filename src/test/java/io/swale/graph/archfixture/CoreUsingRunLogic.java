package io.swale.graph.archfixture;

import io.swale.run.RerunOutcome;

/** Breaks the core-at-the-bottom rule on purpose: a core class that knows the run logic. */
public final class CoreUsingRunLogic {
    public static Class<?> outcomeType() {
        return RerunOutcome.class;
    }
}
