package io.swale.definition;

import java.util.Optional;

/** Whether a {@code schedule} parses as a cron expression; the real dialect (§4.1) is plugged in by the scheduler. */
@FunctionalInterface
public interface CronCheck {

    /** The parser's explanation when {@code expression} is invalid, empty when it is valid. */
    Optional<String> problem(String expression);

    /** Accepts every expression. */
    CronCheck ACCEPT_ALL = expression -> Optional.empty();

    /** Only checks that there are exactly five whitespace-separated fields. */
    CronCheck FIVE_FIELDS = expression -> {
        String trimmed = expression.strip();
        int fields = trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
        return fields == 5
                ? Optional.empty()
                : Optional.of("expected 5 fields separated by whitespace, found " + fields);
    };
}
