package io.swale.definition;

import java.util.List;
import java.util.stream.Collectors;

/** A definition with faults: all of them, in the reporting order of §1.7, one message line each. */
public final class InvalidDefinitionException extends RuntimeException {
    private final List<Fault> faults;

    public InvalidDefinitionException(List<Fault> faults) {
        super(faults.stream().map(Fault::line).collect(Collectors.joining("\n")));
        if (faults.isEmpty()) {
            throw new IllegalArgumentException("an invalid definition has at least one fault");
        }
        this.faults = List.copyOf(faults);
    }

    public List<Fault> faults() {
        return faults;
    }
}
