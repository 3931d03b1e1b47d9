package io.swale.settings;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One entry of {@code swale.pools}. The slots are checked where the pool's name is known
 * ({@link SwaleProperties}), so the message names {@code swale.pools.<name>.slots}.
 *
 * @param slots Slots of this pool per worker replica.
 */
public record PoolSettings(@DefaultValue("4") int slots) {}
