package io.swale.store.redis;

/**
 * {@link RedisRacesIT}'s scenarios on a 3-primary Redis Cluster: Redis refuses any script whose keys span two slots
 * (CROSSSLOT), so each scenario also checks that its atomic units stay in one slot.
 */
@WithTestRedisCluster
class RedisRacesClusterIT extends RedisRacesIT {}
