package io.swale.config.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every Redis property Spring Boot 4 documents (its {@code spring-configuration-metadata.json} for
 * {@code spring.data.redis.*}), each either honoured by Swale's Jedis client or refused with the reason. A name
 * outside the table is refused as unknown, so no Redis setting is silently ignored.
 */
public final class RedisPropertyRules {
    public static final String PREFIX = "spring.data.redis.";
    static final String OLD_PREFIX = "spring.redis.";

    /** The properties mapped onto the client (see {@link RedisTopologyParser}). */
    public static final List<String> HONOURED = List.of("url", "host", "port", "database", "username", "password",
            "timeout", "connect-timeout", "client-name", "client-type", "ssl.enabled", "ssl.bundle",
            "sentinel.master", "sentinel.nodes", "sentinel.username", "sentinel.password", "cluster.nodes",
            "cluster.max-redirects", "jedis.pool.enabled", "jedis.pool.max-active", "jedis.pool.max-idle",
            "jedis.pool.min-idle", "jedis.pool.max-wait", "jedis.pool.time-between-eviction-runs",
            // Boot's switch for Spring Data Redis repositories: Swale declares none, Boot applies it as it is
            "repositories.enabled");

    private static final String LETTUCE = "Swale connects to Redis with Jedis, so a Lettuce setting would change"
            + " nothing; remove it (the Jedis pool is spring.data.redis.jedis.pool.*)";

    /** The documented properties Swale refuses, by name or by name prefix (ending in a dot). */
    public static final Map<String, String> REFUSED = refused();

    private static Map<String, String> refused() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("lettuce.", LETTUCE);
        m.put("masterreplica.", "Spring Boot reads a static primary/replica list for Lettuce only, and a static"
                + " list does not follow a failover; use spring.data.redis.sentinel.master and"
                + " spring.data.redis.sentinel.nodes");
        m.put("ssl", "replaced by spring.data.redis.ssl.enabled in Spring Boot 3.1");
        return Map.copyOf(m);
    }

    private RedisPropertyRules() {
    }

    /** Whether a property name (any relaxed form) is a Redis setting of Boot's, current or old. */
    public static boolean isRedisProperty(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.startsWith(PREFIX) || n.startsWith(OLD_PREFIX);
    }

    /**
     * The canonical dashed name of a bound property name ({@code spring.data.redis.cluster.nodes[0]} and
     * {@code spring.data.redis.cluster.maxredirects} from an environment variable included), or the name as
     * given without index when it is not honoured.
     */
    static String canonical(String name) {
        String n = name.toLowerCase(Locale.ROOT).replaceAll("\\[[^]]*]", "");
        if (!n.startsWith(PREFIX)) {
            return n;
        }
        String tail = n.substring(PREFIX.length());
        String squeezed = tail.replace("-", "").replace("_", "");
        for (String h : HONOURED) {
            // SPRING_DATA_REDIS_CONNECT_TIMEOUT arrives as connect.timeout: Boot binds that legacy form too
            if (h.replace("-", "").equals(squeezed) || h.replace('-', '.').equals(tail)) {
                return PREFIX + h;
            }
        }
        return n;
    }

    /**
     * The refusals for a set of given property names: each names the property and says why. Empty when every
     * name is honoured.
     */
    public static List<String> refusals(Set<String> names) {
        List<String> out = new ArrayList<>();
        for (String raw : new TreeSet<>(names)) {
            String name = canonical(raw);
            if (name.startsWith(OLD_PREFIX)) {
                out.add(name + ": renamed to " + PREFIX + name.substring(OLD_PREFIX.length())
                        + " in Spring Boot 3; Swale reads only the new name");
                continue;
            }
            if (!name.startsWith(PREFIX)) {
                continue;
            }
            String tail = name.substring(PREFIX.length());
            if (HONOURED.contains(tail)) {
                continue;
            }
            refusalFor(tail).ifPresentOrElse(why -> out.add(name + ": " + why),
                    () -> out.add(name + ": not a Redis property Spring Boot documents (misspelt?); the"
                            + " known ones are listed in docs/operations.md, Redis topology"));
        }
        return out;
    }

    private static Optional<String> refusalFor(String tail) {
        for (var e : REFUSED.entrySet()) {
            String key = e.getKey();
            if (key.endsWith(".") ? tail.startsWith(key) : tail.equals(key)) {
                return Optional.of(e.getValue());
            }
        }
        return Optional.empty();
    }
}
