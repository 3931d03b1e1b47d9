package io.swale.archfixture.a;

import io.swale.archfixture.b.CycleB;

/** One half of a package cycle made on purpose. */
public final class CycleA {
    public CycleB other() {
        return new CycleB();
    }
}
