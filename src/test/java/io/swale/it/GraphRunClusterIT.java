package io.swale.it;

import org.springframework.context.annotation.Import;

/**
 * {@link GraphRunIT}'s scenarios (templated output downstream, a failing node with {@code all_done}, rerun scope,
 * cancel) with the stores on a 3-primary Redis Cluster, which refuses any script touching two slots.
 */
@Import(ClusterRedisConfiguration.class)
class GraphRunClusterIT extends GraphRunIT {
}
