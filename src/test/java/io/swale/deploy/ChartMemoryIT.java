package io.swale.deploy;

import static io.swale.deploy.DeployEnvironments.container;
import static io.swale.deploy.DeployEnvironments.list;
import static io.swale.deploy.DeployEnvironments.map;
import static io.swale.deploy.DeployEnvironments.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every Deployment the chart renders leaves its JVM room beside the heap within its memory limit: a pod whose
 * heap and the rest cannot both fit is killed by the OOM killer once the heap grows (docs/performance.md,
 * "Each role in a pod's memory limit": 230–262 MiB resident beside the heap, in every role).
 */
class ChartMemoryIT {
    /** What docs/deploy.md tells users to keep beside the heap. */
    private static final long BESIDE_HEAP_MIB = 300;
    private static final Pattern PERCENTAGE = Pattern.compile("-XX:MaxRAMPercentage=([0-9.]+)");

    private static Path helm;

    @BeforeAll
    static void findHelm() {
        helm = DeployEnvironments.helm().orElse(null);
        assumeTrue(helm != null, "helm is not installed: scripts/check-deploy.sh installs it (CI runs it first)");
    }

    @Test
    void eachDefaultDeploymentKeepsThreeHundredMebibytesBesideItsHeap() throws Exception {
        List<Map<String, Object>> docs = DeployEnvironments.helmTemplate(helm, "swale");
        for (String name : List.of("swale-scheduler", "swale-api", "swale-pool-default")) {
            Map<String, Object> deployment = object(docs, "Deployment", name);
            long limitMib = limitMib(deployment);
            double percentage = heapPercentage(DeployEnvironments.podEnvironment(docs, deployment, Map.of())
                    .getOrDefault("JAVA_TOOL_OPTIONS", ""));
            long heapMib = Math.round(limitMib * percentage / 100);
            assertThat(limitMib - heapMib).as("%s: %d MiB limit, %s %% heap", name, limitMib, percentage)
                    .isGreaterThanOrEqualTo(BESIDE_HEAP_MIB);
        }
    }

    @Test
    void aPoolsOwnHeapPercentageAndTheCommonOptionsFollowIt() throws Exception {
        List<Map<String, Object>> docs = DeployEnvironments.helmTemplate(helm, "swale",
                "--set", "pools[0].name=etl", "--set", "pools[0].heapPercentage=30",
                "--set", "config.javaToolOptions=-XX:+UseG1GC");
        assertThat(javaToolOptions(object(docs, "Deployment", "swale-pool-etl")))
                .isEqualTo("-XX:MaxRAMPercentage=30 -XX:+UseG1GC");
        assertThat(javaToolOptions(object(docs, "Deployment", "swale-scheduler")))
                .isEqualTo("-XX:MaxRAMPercentage=55 -XX:+UseG1GC");
    }

    @Test
    void javaToolOptionsInExtraEnvReplaceTheChartsOnce() throws Exception {
        List<Map<String, Object>> docs = DeployEnvironments.helmTemplate(helm, "swale",
                "--set", "api.extraEnv.JAVA_TOOL_OPTIONS=-Xmx200m");
        assertThat(javaToolOptions(object(docs, "Deployment", "swale-api"))).isEqualTo("-Xmx200m");
        assertThat(javaToolOptions(object(docs, "Deployment", "swale-scheduler"))).startsWith("-XX:MaxRAMPercentage=55");
    }

    /** The container's one JAVA_TOOL_OPTIONS entry: a second one would hide the first. */
    private static String javaToolOptions(Map<String, Object> deployment) {
        List<String> values = list(container(deployment), "env").stream()
                .filter(e -> "JAVA_TOOL_OPTIONS".equals(e.get("name")))
                .map(e -> String.valueOf(e.get("value"))).toList();
        assertThat(values).as("JAVA_TOOL_OPTIONS of %s", map(deployment, "metadata").get("name")).hasSize(1);
        return values.getFirst();
    }

    private static double heapPercentage(String javaToolOptions) {
        // the JVM takes the last of a repeated flag
        Matcher m = PERCENTAGE.matcher(javaToolOptions);
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        assertThat(last).as("a -XX:MaxRAMPercentage in `%s`", javaToolOptions).isNotNull();
        return Double.parseDouble(last);
    }

    private static long limitMib(Map<String, Object> deployment) {
        String limit = String.valueOf(map(map(container(deployment), "resources"), "limits").get("memory"));
        assertThat(limit).as("a memory limit in Mi or Gi").matches("[0-9]+(Mi|Gi)");
        long n = Long.parseLong(limit.substring(0, limit.length() - 2));
        return limit.endsWith("Gi") ? n * 1024 : n;
    }
}
