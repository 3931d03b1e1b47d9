package io.swale.settings;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * One entry of {@code swale.pools}. The slots are checked where the pool's name is known
 * ({@link SwaleProperties}), so the message names {@code swale.pools.<name>.slots}.
 *
 * @param slots Slots of this pool per worker replica: operators running at once. An attempt whose operator
 *     returned settles beside them, so up to twice as many attempts are on a replica at once.
 */
public record PoolSettings(@DefaultValue("4") int slots) {}
