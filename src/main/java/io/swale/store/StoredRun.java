package io.swale.store;

import io.swale.record.GraphRunRecord;
import java.util.Objects;

/** A run record as read, with the version a conditional write of that run compares against. */
public record StoredRun(RunVersion version, GraphRunRecord run) {
    public StoredRun {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(run, "run");
    }
}
