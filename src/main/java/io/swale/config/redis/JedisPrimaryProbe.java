package io.swale.config.redis;

import io.swale.config.redis.PrimarySnapshot.Primary;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Asks the servers who the primaries are, on short connections of its own (never the store's pool): the
 * standalone server, the primary the sentinels name, or each slot range's primary from CLUSTER SLOTS; then each
 * primary's run_id from INFO server. Throws {@link JedisException} when the answer cannot be had now.
 */
public final class JedisPrimaryProbe {
    private final RedisClientFactory clients;

    public JedisPrimaryProbe(RedisClientFactory clients) {
        this.clients = clients;
    }

    public PrimarySnapshot probe() {
        return switch (clients.settings().topology()) {
            case RedisTopology.Standalone s -> PrimarySnapshot.single(s.address().toString(),
                    runId(RedisClientFactory.hostAndPort(s.address())));
            case RedisTopology.Sentinel s -> {
                HostAndPort primary = sentinelPrimary(s);
                yield PrimarySnapshot.single(primary.toString(), runId(primary));
            }
            case RedisTopology.Cluster c -> cluster(c);
        };
    }

    /** The primary the first answering sentinel names. */
    public HostAndPort sentinelPrimary(RedisTopology.Sentinel s) {
        JedisClientConfig config = clients.sentinelConfig(s);
        JedisException last = null;
        for (RedisEndpoint sentinel : s.sentinels()) {
            try (Jedis jedis = new Jedis(RedisClientFactory.hostAndPort(sentinel), config)) {
                List<String> addr = jedis.sentinelGetMasterAddrByName(s.master());
                if (addr != null && addr.size() == 2) {
                    return new HostAndPort(addr.get(0), Integer.parseInt(addr.get(1)));
                }
                last = new JedisException("sentinel " + sentinel + " does not know master " + s.master());
            } catch (JedisException e) {
                last = e;
            }
        }
        throw last == null ? new JedisException("no sentinel") : last;
    }

    private PrimarySnapshot cluster(RedisTopology.Cluster c) {
        JedisException last = null;
        for (RedisEndpoint seed : c.nodes()) {
            try (Jedis jedis = new Jedis(RedisClientFactory.hostAndPort(seed), clients.dataNodeConfig())) {
                Map<String, Primary> out = new LinkedHashMap<>();
                for (Object range : jedis.clusterSlots()) {
                    List<?> r = (List<?>) range;
                    List<?> master = (List<?>) r.get(2);
                    String host = text(master.get(0));
                    HostAndPort address = new HostAndPort(host.isEmpty() ? seed.host() : host,
                            ((Number) master.get(1)).intValue());
                    out.put("slots " + r.get(0) + "-" + r.get(1), new Primary(address.toString(), runId(address)));
                }
                return new PrimarySnapshot(out);
            } catch (JedisException e) {
                last = e;
            }
        }
        throw last == null ? new JedisException("no cluster node") : last;
    }

    private String runId(HostAndPort address) {
        try (Jedis jedis = new Jedis(address, clients.dataNodeConfig())) {
            return parseRunId(jedis.info("server"));
        }
    }

    static String parseRunId(String info) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("run_id:")) {
                return line.substring("run_id:".length()).trim();
            }
        }
        throw new JedisException("INFO server has no run_id");
    }

    private static String text(Object o) {
        return o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(o);
    }
}
