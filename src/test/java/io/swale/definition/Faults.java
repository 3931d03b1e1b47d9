package io.swale.definition;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;

/** Loads a definition expected to be invalid and hands back its faults. */
final class Faults {
    private Faults() {}

    static List<Fault> of(String toml) {
        InvalidDefinitionException e = catchThrowableOfType(InvalidDefinitionException.class,
                () -> TestOperators.loader().load(toml, DefinitionFormat.TOML));
        if (e == null) {
            throw new AssertionError("expected the definition to be invalid:\n" + toml);
        }
        return e.faults();
    }

    static List<FaultKind> kinds(String toml) {
        return of(toml).stream().map(Fault::kind).toList();
    }
}
