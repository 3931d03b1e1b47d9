package io.swale.deploy;

import static io.swale.deploy.DeployEnvironments.list;
import static io.swale.deploy.DeployEnvironments.map;
import static io.swale.deploy.DeployEnvironments.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the chart sets of the worker's lease and of its probes. */
class ChartWorkerSettingsIT {
    private static Path helm;

    @BeforeAll
    static void findHelm() {
        helm = DeployEnvironments.helm().orElse(null);
        assumeTrue(helm != null, "helm is not installed: scripts/check-deploy.sh installs it (CI runs it first)");
    }

    private static Map<String, Object> configData(String... args) throws Exception {
        return map(object(DeployEnvironments.helmTemplate(helm, "swale", args), "ConfigMap", "swale-config"), "data");
    }

    /**
     * Was: the chart always set a 20 s heartbeat, and the service refuses one not shorter than the lease, so a lease
     * of 20 s or less set alone stopped every pod at start. Unset, the heartbeat is a third of the lease.
     */
    @Test
    void theHeartbeatIsLeftToTheServiceUnlessSet() throws Exception {
        assertThat(configData()).containsEntry("SWALE_WORKER_LEASE", "60s").doesNotContainKey("SWALE_WORKER_HEARTBEAT");
        assertThat(configData("--set", "config.worker.lease=12s")).containsEntry("SWALE_WORKER_LEASE", "12s")
                .doesNotContainKey("SWALE_WORKER_HEARTBEAT");
        assertThat(configData("--set", "config.worker.heartbeat=5s")).containsEntry("SWALE_WORKER_HEARTBEAT", "5s");
    }

    /** Was: the schema took initialDelaySeconds and the templates dropped it. */
    @Test
    void aProbesInitialDelayReachesEveryDeployment() throws Exception {
        List<Map<String, Object>> docs = DeployEnvironments.helmTemplate(helm, "swale",
                "--set", "probes.liveness.initialDelaySeconds=30");
        for (String name : List.of("swale-scheduler", "swale-api", "swale-pool-default")) {
            Map<String, Object> container = list(map(map(map(object(docs, "Deployment", name), "spec"), "template"),
                    "spec"), "containers").getFirst();
            assertThat(map(container, "livenessProbe")).as(name).containsEntry("initialDelaySeconds", 30);
            assertThat(map(container, "readinessProbe")).as(name).doesNotContainKey("initialDelaySeconds");
        }
    }
}
