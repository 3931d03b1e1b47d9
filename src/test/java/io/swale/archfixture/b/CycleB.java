package io.swale.archfixture.b;

import io.swale.archfixture.a.CycleA;

/** The other half of a package cycle made on purpose. */
public final class CycleB {
    public CycleA other() {
        return new CycleA();
    }
}
