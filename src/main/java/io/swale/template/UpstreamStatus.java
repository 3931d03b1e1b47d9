package io.swale.template;

import java.util.Objects;
import java.util.Optional;

/** The current record of one upstream as {@code run.summary} shows it: its status and error, if any. */
public record UpstreamStatus(String status, Optional<String> error) {
    public UpstreamStatus {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(error, "error");
    }
}
