package io.swale.operator;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/** What one poll of an object store found. */
sealed interface ObjectProbe {
    record Exists(OptionalLong size, Optional<Instant> lastModified) implements ObjectProbe {}

    record Absent() implements ObjectProbe {}

    record Error(OperatorResult result) implements ObjectProbe {}
}
