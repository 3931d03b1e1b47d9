package io.swale.config.redis;

import io.swale.config.redis.RedisClientOptions.PoolOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;

/**
 * Turns Spring Boot's bound {@link DataRedisProperties} and the names actually given into a checked
 * {@link RedisConnectionSettings}, or refuses them: unknown or Lettuce-only names, and settings that contradict
 * each other (two topologies, {@code url} with {@code host}, a database index on a Cluster, ...). Every problem
 * is collected, so one start-up shows them all. Pure: no connection is opened.
 */
public final class RedisTopologyParser {
    private static final String P = RedisPropertyRules.PREFIX;

    private RedisTopologyParser() {
    }

    public static RedisConnectionSettings parse(DataRedisProperties props, Set<String> givenNames) {
        Set<String> given = givenNames.stream().map(RedisPropertyRules::canonical).collect(Collectors.toSet());
        List<String> problems = new ArrayList<>(RedisPropertyRules.refusals(givenNames));
        Consumer<String> refuse = problems::add;
        boolean url = given.contains(P + "url");
        boolean sentinel = given.stream().anyMatch(n -> n.startsWith(P + "sentinel."));
        boolean cluster = given.stream().anyMatch(n -> n.startsWith(P + "cluster."));

        if (props.getClientType() == DataRedisProperties.ClientType.LETTUCE) {
            refuse.accept(P + "client-type=lettuce: Swale connects with Jedis; remove it or set jedis");
        }
        Boolean poolEnabled = props.getJedis().getPool().getEnabled();
        if (Boolean.FALSE.equals(poolEnabled)) {
            refuse.accept(P + "jedis.pool.enabled=false: Swale's store needs a connection pool (every listener"
                    + " thread holds a connection per call); remove it");
        }
        if (sentinel && cluster) {
            refuse.accept(names(given, "sentinel.") + " and " + names(given, "cluster.")
                    + " both given: a Redis is either Sentinel-managed or a Cluster; keep one");
        }
        if (url && (sentinel || cluster)) {
            refuse.accept(P + "url together with " + names(given, sentinel ? "sentinel." : "cluster.")
                    + ": url names one server; give credentials as " + P + "username/password instead");
        }
        for (String single : List.of("host", "port")) {
            if (given.contains(P + single)) {
                if (url) {
                    refuse.accept(P + "url and " + P + single + " both given: url already names the server");
                } else if (sentinel || cluster) {
                    refuse.accept(P + single + " with " + (sentinel ? "sentinel.*" : "cluster.*")
                            + ": the servers come from " + P + (sentinel ? "sentinel" : "cluster") + ".nodes");
                }
            }
        }
        if (url) {
            for (String overridden : List.of("username", "password", "database")) {
                if (given.contains(P + overridden)) {
                    refuse.accept(P + "url and " + P + overridden + " both given: the url overrides it; put it"
                            + " in the url or drop the url");
                }
            }
        }
        if (given.contains(P + "ssl.bundle") && given.contains(P + "ssl.enabled") && !props.getSsl().isEnabled()) {
            refuse.accept(P + "ssl.bundle with " + P + "ssl.enabled=false: the bundle would be ignored");
        }
        Duration timeout = duration(P + "timeout", props.getTimeout(), refuse);
        Duration connectTimeout = duration(P + "connect-timeout", props.getConnectTimeout(), refuse);

        Optional<UrlParts> urlParts = url ? parseUrl(props.getUrl(), refuse) : Optional.empty();
        boolean ssl = props.getSsl().isEnabled() || urlParts.map(UrlParts::ssl).orElse(false);
        if (urlParts.map(UrlParts::ssl).orElse(false) && given.contains(P + "ssl.enabled")
                && !props.getSsl().isEnabled()) {
            refuse.accept(P + "url is rediss:// (TLS) but " + P + "ssl.enabled=false");
        }
        Optional<String> username = urlParts.flatMap(UrlParts::username).or(() -> text(props.getUsername()));
        Optional<String> password = urlParts.flatMap(UrlParts::password).or(() -> text(props.getPassword()));
        int database = urlParts.map(UrlParts::database).orElse(props.getDatabase());
        if (database < 0) {
            refuse.accept(P + "database=" + database + ": must be 0 or more");
        }

        RedisTopology topology = null;
        if (sentinel && !cluster) {
            topology = sentinel(props, given, database, refuse);
        } else if (cluster && !sentinel) {
            topology = cluster(props, database, refuse);
        } else if (!sentinel) {
            RedisEndpoint address = urlParts.map(UrlParts::address)
                    .orElseGet(() -> endpoint(P + "host/port", props.getHost() + ":" + props.getPort(), refuse));
            topology = address == null ? null : new RedisTopology.Standalone(address, database);
        }
        if (!problems.isEmpty() || topology == null) {
            throw new InvalidRedisSettingsException(problems);
        }
        return new RedisConnectionSettings(topology, new RedisClientOptions(username, password, timeout,
                connectTimeout, text(props.getClientName()), ssl, text(props.getSsl().getBundle()),
                pool(props.getJedis().getPool(), given)));
    }

    private static RedisTopology sentinel(DataRedisProperties props, Set<String> given, int database,
            Consumer<String> refuse) {
        var s = props.getSentinel();
        Optional<String> master = text(s.getMaster());
        List<RedisEndpoint> nodes = endpoints(P + "sentinel.nodes", s.getNodes(), refuse);
        if (master.isEmpty()) {
            refuse.accept(names(given, "sentinel.") + " given without " + P + "sentinel.master (the name the"
                    + " sentinels monitor)");
        }
        if (nodes.isEmpty()) {
            refuse.accept(P + "sentinel.nodes is empty: list the sentinels as host:port,host:port");
        }
        return master.isEmpty() || nodes.isEmpty() ? null
                : new RedisTopology.Sentinel(master.get(), nodes, text(s.getUsername()), text(s.getPassword()),
                        database);
    }

    private static RedisTopology cluster(DataRedisProperties props, int database, Consumer<String> refuse) {
        var c = props.getCluster();
        List<RedisEndpoint> nodes = endpoints(P + "cluster.nodes", c.getNodes(), refuse);
        if (nodes.isEmpty()) {
            refuse.accept(P + "cluster.nodes is empty: list some cluster nodes as host:port,host:port");
        }
        if (database != 0) {
            refuse.accept(P + "database=" + database + " with cluster.nodes: a Redis Cluster has database 0 only");
        }
        int redirects = c.getMaxRedirects() == null ? 5 : c.getMaxRedirects();
        if (redirects < 1) {
            refuse.accept(P + "cluster.max-redirects=" + redirects + ": must be 1 or more");
        }
        return nodes.isEmpty() ? null : new RedisTopology.Cluster(nodes, Math.max(1, redirects));
    }

    private static PoolOptions pool(DataRedisProperties.Pool p, Set<String> given) {
        PoolOptions d = PoolOptions.DEFAULT;
        String pool = P + "jedis.pool.";
        // Boot's defaults (8 connections) apply only to what the operator set; the rest keep Swale's
        return new PoolOptions(
                given.contains(pool + "max-active") ? p.getMaxActive() : d.maxActive(),
                given.contains(pool + "max-idle") ? p.getMaxIdle() : d.maxIdle(),
                given.contains(pool + "min-idle") ? p.getMinIdle() : d.minIdle(),
                given.contains(pool + "max-wait") && p.getMaxWait() != null ? p.getMaxWait() : d.maxWait(),
                Optional.ofNullable(p.getTimeBetweenEvictionRuns()));
    }

    private record UrlParts(RedisEndpoint address, Optional<String> username, Optional<String> password,
            int database, boolean ssl) {
    }

    private static Optional<UrlParts> parseUrl(String url, Consumer<String> refuse) {
        try {
            URI uri = new URI(url.trim());
            String scheme = String.valueOf(uri.getScheme()).toLowerCase(java.util.Locale.ROOT);
            if (!scheme.equals("redis") && !scheme.equals("rediss")) {
                refuse.accept(P + "url '" + redact(url) + "': the scheme must be redis:// or rediss://");
                return Optional.empty();
            }
            if (uri.getHost() == null) {
                refuse.accept(P + "url '" + redact(url) + "' names no host");
                return Optional.empty();
            }
            Optional<String> user = Optional.empty();
            Optional<String> password = Optional.empty();
            if (uri.getRawUserInfo() != null) {
                String info = uri.getRawUserInfo();
                int colon = info.indexOf(':');
                // Boot reads redis://:secret@host and redis://user:secret@host; a lone token is the password
                String u = colon < 0 ? "" : info.substring(0, colon);
                String pw = colon < 0 ? info : info.substring(colon + 1);
                user = text(URLDecoder.decode(u, StandardCharsets.UTF_8));
                password = text(URLDecoder.decode(pw, StandardCharsets.UTF_8));
            }
            int database = 0;
            String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
            if (!path.isEmpty()) {
                try {
                    database = Integer.parseInt(path);
                } catch (NumberFormatException e) {
                    refuse.accept(P + "url '" + redact(url) + "': the path must be a database number");
                }
            }
            int port = uri.getPort() < 0 ? 6379 : uri.getPort();
            return Optional.of(new UrlParts(new RedisEndpoint(uri.getHost(), port), user, password, database,
                    scheme.equals("rediss")));
        } catch (URISyntaxException | IllegalArgumentException e) {
            refuse.accept(P + "url '" + redact(url) + "' is not a URL: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** The url without its password, for messages. */
    static String redact(String url) {
        return url == null ? "" : url.replaceAll("//([^:@/]*):[^@/]*@", "//$1:***@");
    }

    private static List<RedisEndpoint> endpoints(String property, List<String> values, Consumer<String> refuse) {
        List<RedisEndpoint> out = new ArrayList<>();
        for (String v : values == null ? List.<String>of() : values) {
            RedisEndpoint e = endpoint(property, v, refuse);
            if (e != null) {
                out.add(e);
            }
        }
        return out;
    }

    private static RedisEndpoint endpoint(String property, String value, Consumer<String> refuse) {
        try {
            return RedisEndpoint.parse(property, value);
        } catch (IllegalArgumentException e) {
            refuse.accept(e.getMessage());
            return null;
        }
    }

    private static Duration duration(String property, Duration value, Consumer<String> refuse) {
        if (value == null) {
            return RedisClientOptions.DEFAULT_TIMEOUT;
        }
        if (value.isNegative() || value.isZero()) {
            refuse.accept(property + "=" + value + ": must be positive (zero would wait forever)");
            return RedisClientOptions.DEFAULT_TIMEOUT;
        }
        if (value.toMillis() > Integer.MAX_VALUE) {
            refuse.accept(property + "=" + value + ": too long");
            return RedisClientOptions.DEFAULT_TIMEOUT;
        }
        return value;
    }

    private static String names(Set<String> given, String group) {
        return given.stream().filter(n -> n.startsWith(P + group)).sorted().collect(Collectors.joining(", "));
    }

    private static Optional<String> text(String s) {
        return s == null || s.isEmpty() ? Optional.empty() : Optional.of(s);
    }
}
