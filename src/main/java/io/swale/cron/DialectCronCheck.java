package io.swale.cron;

import io.swale.definition.CronCheck;
import java.util.Optional;

/** The definition loader's schedule check: an expression the dialect rejects is an InvalidSchedule fault. */
public final class DialectCronCheck implements CronCheck {
    @Override
    public Optional<String> problem(String expression) {
        try {
            CronSchedule.parse(expression);
            return Optional.empty();
        } catch (InvalidCronException e) {
            return Optional.of(e.getMessage());
        }
    }
}
