package io.swale.config.redis;

import java.util.List;

/** The Redis settings cannot be honoured: each problem names its property. */
public class InvalidRedisSettingsException extends IllegalStateException {
    private final List<String> problems;

    public InvalidRedisSettingsException(List<String> problems) {
        super("Swale refuses these Redis settings (spring.data.redis.*):\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
