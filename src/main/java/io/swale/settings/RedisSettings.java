package io.swale.settings;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.redis.*}.
 *
 * @param keyPrefix Prefix of every Redis key Swale writes, so several installations can share one Redis.
 */
public record RedisSettings(@DefaultValue("swale") String keyPrefix) {

    public RedisSettings {
        if (keyPrefix == null || keyPrefix.isBlank()) {
            throw new IllegalArgumentException("swale.redis.key-prefix must not be blank");
        }
    }
}
