package io.swale.config.redis;

import java.util.List;
import java.util.Optional;

/** Which Redis the store talks to, as {@code spring.data.redis.*} describes it. */
public sealed interface RedisTopology {

    /** A short name for logs and the info endpoint. */
    String describe();

    /**
     * One server ({@code host}/{@code port} or {@code url}).
     *
     * @param address the server
     * @param database the database index
     */
    record Standalone(RedisEndpoint address, int database) implements RedisTopology {
        @Override
        public String describe() {
            return "standalone " + address + (database == 0 ? "" : " db " + database);
        }
    }

    /**
     * A primary found through Sentinel and followed through failover.
     *
     * @param master the name the sentinels monitor
     * @param sentinels the sentinels to ask
     * @param username the sentinels' own user, when they need one
     * @param password the sentinels' own password, when they need one
     * @param database the database index on the primary
     */
    record Sentinel(String master, List<RedisEndpoint> sentinels, Optional<String> username,
            Optional<String> password, int database) implements RedisTopology {
        public Sentinel {
            sentinels = List.copyOf(sentinels);
        }

        @Override
        public String describe() {
            return "sentinel master " + master + " via " + sentinels;
        }
    }

    /**
     * A Redis Cluster.
     *
     * @param nodes the nodes to discover the cluster from
     * @param maxRedirects how many MOVED/ASK redirects one command follows
     */
    record Cluster(List<RedisEndpoint> nodes, int maxRedirects) implements RedisTopology {
        public Cluster {
            nodes = List.copyOf(nodes);
        }

        @Override
        public String describe() {
            return "cluster via " + nodes;
        }
    }
}
