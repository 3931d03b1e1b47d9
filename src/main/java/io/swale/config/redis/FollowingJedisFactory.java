package io.swale.config.redis;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.PooledObjectFactory;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisPoolConfig;

/**
 * Connections to whichever server is the primary now: a {@link JedisPool} whose address moves when the
 * sentinels name a new primary ({@link #follow}). It lets the store classes, which still take a
 * {@link JedisPool}, run on Sentinel until they move to {@link redis.clients.jedis.JedisSentineled}; a
 * connection to the old primary is not handed out again (checked on borrow).
 */
public final class FollowingJedisFactory implements PooledObjectFactory<Jedis> {
    private final AtomicReference<HostAndPort> primary;
    private final JedisClientConfig config;
    private volatile JedisPool pool;

    private FollowingJedisFactory(HostAndPort primary, JedisClientConfig config) {
        this.primary = new AtomicReference<>(primary);
        this.config = config;
    }

    /** A pool on {@code primary} now, re-pointed by {@link #follow}. */
    public static FollowingJedisFactory pool(HostAndPort primary, JedisClientConfig config, JedisPoolConfig pool) {
        FollowingJedisFactory factory = new FollowingJedisFactory(primary, config);
        pool.setTestOnBorrow(true);
        factory.pool = new JedisPool(pool, factory);
        return factory;
    }

    public JedisPool jedisPool() {
        return pool;
    }

    public HostAndPort primary() {
        return primary.get();
    }

    /** Points new connections at {@code now} and drops the idle ones to the old primary. */
    public void follow(HostAndPort now) {
        HostAndPort before = primary.getAndSet(now);
        if (!before.equals(now)) {
            pool.clear();
        }
    }

    @Override
    public PooledObject<Jedis> makeObject() {
        PrimaryJedis jedis = new PrimaryJedis(primary.get(), config);
        try {
            jedis.connect();
        } catch (RuntimeException e) {
            jedis.close();
            throw e;
        }
        return new DefaultPooledObject<>(jedis);
    }

    @Override
    public boolean validateObject(PooledObject<Jedis> p) {
        return p.getObject() instanceof PrimaryJedis jedis && jedis.isConnected() && !jedis.isBroken()
                && primary.get().equals(jedis.address);
    }

    @Override
    public void destroyObject(PooledObject<Jedis> p) {
        // close() would hand a pooled connection back to the pool
        p.getObject().disconnect();
    }

    @Override
    public void activateObject(PooledObject<Jedis> p) {
    }

    @Override
    public void passivateObject(PooledObject<Jedis> p) {
    }

    /** A connection that remembers which primary it was opened to. */
    private static final class PrimaryJedis extends Jedis {
        private final HostAndPort address;

        PrimaryJedis(HostAndPort address, JedisClientConfig config) {
            super(address, config);
            this.address = address;
        }
    }
}
