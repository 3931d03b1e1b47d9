package io.swale.it;

import org.springframework.context.annotation.Import;

/** {@link ReconcilerIT}'s repairs with the stores on a 3-primary Redis Cluster. */
@Import(ClusterRedisConfiguration.class)
class ReconcilerClusterIT extends ReconcilerIT {
}
