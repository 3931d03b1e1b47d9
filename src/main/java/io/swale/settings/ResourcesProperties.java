package io.swale.settings;

import static io.swale.settings.PropertyChecks.positive;

import io.swale.template.LeaseNames;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code swale.resources.*}: leases on named resources (docs/resources.md).
 *
 * @param capacities Capacity of each resource by name, e.g. swale.resources.capacities.warehouse=2; written to
 *     Redis by every scheduler and pool replica at start-up (keep it equal on every replica). A resource not
 *     listed, and not declared through PUT /api/v1/resources/NAME, has capacity 1.
 * @param strict Refuse a definition that leases a resource with no declared capacity (at publish and validate),
 *     and fail an instance whose rendered lease names one.
 * @param reapInterval How often expired lease grants are freed and waiters that may be granted are woken.
 * @param wakeInterval A woken waiter that has not come back for its leases is woken again after this.
 */
@ConfigurationProperties("swale.resources")
public record ResourcesProperties(
        @DefaultValue Map<String, Integer> capacities,
        @DefaultValue("false") boolean strict,
        @DefaultValue("1s") Duration reapInterval,
        @DefaultValue("5s") Duration wakeInterval) {

    /** The largest capacity a resource may have. */
    public static final int MAX_CAPACITY = 1_000_000;

    public ResourcesProperties {
        capacities = new TreeMap<>(capacities == null ? Map.of() : capacities);
        capacities.forEach((name, capacity) -> {
            if (!LeaseNames.validName(name)) {
                throw new IllegalArgumentException("swale.resources.capacities." + name + ": " + LeaseNames.SYNTAX);
            }
            capacityProblem(name, capacity).ifPresent(why -> {
                throw new IllegalArgumentException("swale.resources.capacities." + name + ": " + why);
            });
        });
        capacities = java.util.Collections.unmodifiableMap(capacities);
        positive("swale.resources.reap-interval", reapInterval);
        positive("swale.resources.wake-interval", wakeInterval);
    }

    /** Why {@code capacity} cannot be the capacity of {@code name}, or empty when it can. */
    public static java.util.Optional<String> capacityProblem(String name, Integer capacity) {
        if (capacity == null || capacity < 1 || capacity > MAX_CAPACITY) {
            return java.util.Optional.of("the capacity of resource `" + name + "` must be an integer from 1 to "
                    + MAX_CAPACITY + ", got " + capacity);
        }
        return java.util.Optional.empty();
    }
}
