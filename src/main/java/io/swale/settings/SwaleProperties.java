package io.swale.settings;

import static io.swale.settings.PropertyChecks.atLeast;
import static io.swale.settings.PropertyChecks.present;

import io.swale.definition.Durations;
import io.swale.definition.InvalidDurationException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Everything under {@code swale.*}, bound once at start-up through the constructor. A bad value fails the
 * start with a message naming the property; an absent group ({@code swale.kafka}, …) gets its defaults.
 *
 * @param roles Roles this process runs: scheduler, pool, api. Without api, a process serves only its probes and
 *     Actuator, not the admin API or the dashboard.
 * @param pools Pools by name; swale.pools.NAME.slots is the slots of pool NAME per worker replica (default 4):
 *     operators running at once, each attempt's result settled beside them.
 *     The default pool is there even when unlisted, with swale.default-slots.
 * @param defaultSlots Slots of the default pool when swale.pools does not list it, and of pools created on demand
 *     (swale.auto-create-pools).
 * @param autoCreatePools Create a pool a published definition names when configuration lacks it (true in local
 *     mode).
 * @param examples Folder of definition files published at start-up and each sync pass; empty publishes none
 *     (examples in local mode). Of two files that define one graph, the first by name is published and the other
 *     is logged as refused.
 * @param retention How long settled runs are kept before the retention pass removes them with their records
 *     (spec §12), e.g. 90d or 12h.
 * @param kafka Topics and consumers.
 * @param redis Keys.
 * @param scheduler The scheduler role's periodic passes.
 * @param worker How the pool role claims, runs and retries attempts.
 * @param s3 How object_exists reaches s3:// objects.
 * @param http The http operator.
 * @param limits What one request may cost.
 */
@ConfigurationProperties("swale")
public record SwaleProperties(
        @DefaultValue({"scheduler", "pool", "api"}) List<String> roles,
        @DefaultValue Map<String, PoolSettings> pools,
        @DefaultValue("4") int defaultSlots,
        @DefaultValue("false") boolean autoCreatePools,
        @DefaultValue("") String examples,
        @DefaultValue("90d") String retention,
        @DefaultValue @NestedConfigurationProperty KafkaSettings kafka,
        @DefaultValue @NestedConfigurationProperty RedisSettings redis,
        @DefaultValue @NestedConfigurationProperty SchedulerSettings scheduler,
        @DefaultValue @NestedConfigurationProperty WorkerSettings worker,
        @DefaultValue @NestedConfigurationProperty S3ClientSettings s3,
        @DefaultValue @NestedConfigurationProperty HttpSettings http,
        @DefaultValue @NestedConfigurationProperty LimitsSettings limits) {

    /** The roles {@code swale.roles} may name. */
    public static final Set<String> KNOWN_ROLES = Set.of("scheduler", "pool", "api");

    public SwaleProperties {
        roles = List.copyOf(present("swale.roles", roles));
        for (String role : roles) {
            if (!KNOWN_ROLES.contains(role)) {
                throw new IllegalArgumentException(
                        "swale.roles: unknown role `" + role + "` (known: scheduler, pool, api)");
            }
        }
        // keeps the configured order: pools are listed and created in it
        pools = Collections.unmodifiableMap(new LinkedHashMap<>(pools == null ? Map.of() : pools));
        pools.forEach((name, pool) -> atLeast("swale.pools." + name + ".slots", pool.slots(), 1));
        atLeast("swale.default-slots", defaultSlots, 1);
        examples = examples == null ? "" : examples;
        retentionPeriod(present("swale.retention", retention));
        present("swale.kafka", kafka);
        present("swale.redis", redis);
        present("swale.scheduler", scheduler);
        present("swale.worker", worker);
        // a replica told to serve a pool that no configuration gives would take none of its work, and say nothing
        if (roles.contains("pool") && !autoCreatePools) {
            for (String pool : worker.pools()) {
                if (!pool.equals("default") && !pools.containsKey(pool)) {
                    throw new IllegalArgumentException("swale.worker.pools: pool `" + pool + "` is not configured "
                            + "(swale.pools." + pool + ".slots) and swale.auto-create-pools is off, so this replica "
                            + "would serve none of its work; configured: " + String.join(", ", configuredPools(pools)));
                }
            }
        }
        present("swale.s3", s3);
        present("swale.http", http);
        present("swale.limits", limits);
    }

    private static List<String> configuredPools(Map<String, PoolSettings> pools) {
        List<String> names = new java.util.ArrayList<>(List.of("default"));
        pools.keySet().stream().filter(p -> !p.equals("default")).forEach(names::add);
        return names;
    }

    public boolean hasRole(String role) {
        return roles.contains(role);
    }

    /** {@link #retention()} as a duration. */
    public Duration retentionPeriod() {
        return retentionPeriod(retention);
    }

    private static Duration retentionPeriod(String retention) {
        try {
            return Durations.parse(retention);
        } catch (InvalidDurationException e) {
            // no cause: the start's failure report shows the deepest one, which would not name the property
            throw new IllegalArgumentException("swale.retention: " + e.getMessage());
        }
    }
}
