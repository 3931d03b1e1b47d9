package io.swale.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partitioning;
import io.swale.graph.TriggerRule;
import io.swale.operator.OperatorRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Definition files written for swale 0.2.0 load unchanged (copied from the shared compat set). */
class CompatDefinitionsTest {

    static byte[] resource(String name) {
        try (InputStream in = CompatDefinitionsTest.class.getResourceAsStream("/definitions/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"local.toml", "local_subprocess.toml", "orders_daily.toml"})
    void everyCompatFileLoads(String file) {
        byte[] bytes = resource(file);
        Definition d = TestOperators.loader().load(bytes, DefinitionFormat.fromFileName(file));
        assertThat(d.hash()).isEqualTo(DefinitionHash.of(bytes));
        assertThat(d.graph().nodes()).isNotEmpty();
    }

    @Test
    void localGraphPassesAnUpstreamOutputThroughATemplate() {
        Graph g = TestOperators.loader().load(resource("local.toml"), DefinitionFormat.TOML).graph();
        assertThat(g.name()).isEqualTo("local");
        assertThat(g.nodes()).extracting(Node::name).containsExactly("first", "second");
        assertThat(g.upstreams("second")).containsExactly("first");
        assertThat(g.nodes().get(1).params().get("command").asString()).contains("{{ upstream.first.n }}");
    }

    /** The graph model example of §2. */
    @Test
    void ordersDailyIsTheGraphModelExample() {
        Graph g = TestOperators.loader().load(resource("orders_daily.toml"), DefinitionFormat.TOML).graph();
        assertThat(g.name()).isEqualTo("orders_daily");
        assertThat(g.schedule()).contains("0 2 * * *");
        assertThat(g.catchup()).contains(Duration.ofDays(7));
        assertThat(g.partitioning()).isEqualTo(Partitioning.DAILY);
        assertThat(g.nodes()).extracting(Node::name)
                .containsExactly("extract", "transform", "load", "partition_ready", "notify");
        assertThat(g.edgeCount()).isEqualTo(3);
        assertThat(g.roots()).extracting(Node::name).containsExactly("extract", "partition_ready");
        assertThat(g.leaves()).extracting(Node::name).containsExactly("partition_ready", "notify");
        assertThat(g.upstreams("transform")).containsExactly("extract");
        assertThat(g.upstreams("load")).containsExactly("transform");
        assertThat(g.upstreams("notify")).containsExactly("load");
        assertThat(g.downstreams("extract")).containsExactly("transform");
        assertThat(g.triggerRule("notify")).isEqualTo(TriggerRule.ALL_DONE);
        assertThat(g.triggerRule("load")).isEqualTo(TriggerRule.ALL_SUCCEEDED);
        Node load = g.node("load").orElseThrow();
        assertThat(load.pool()).isEqualTo("warehouse");
        assertThat(load.retries()).isEqualTo(5);
        assertThat(load.operator()).isEqualTo("http");
        assertThat(load.params().get("headers").get("Content-Type").asString()).isEqualTo("application/json");
        assertThat(g.node("extract").orElseThrow().retries()).isEqualTo(3);
        assertThat(g.node("notify").orElseThrow().isAsset()).isFalse();
    }

    @Test
    void shellAndSubprocessFilesLoadWithTheBuiltInOperators() {
        DefinitionLoader loader = new DefinitionLoader(OperatorRegistry.builtIn(), CronCheck.FIVE_FIELDS);
        assertThat(loader.load(resource("local.toml"), DefinitionFormat.TOML).graph().edgeCount()).isEqualTo(1);
        assertThat(loader.load(resource("local_subprocess.toml"), DefinitionFormat.TOML).graph().edgeCount()).isEqualTo(1);
    }

    /** Waits for the http and object_exists operators: skipped until the registry has them. */
    @Test
    void ordersDailyLoadsWithTheBuiltInOperators() {
        OperatorRegistry builtIn = OperatorRegistry.builtIn();
        assumeThat(builtIn.find("http")).as("built-in http operator").isPresent();
        assumeThat(builtIn.find("object_exists")).as("built-in object_exists operator").isPresent();
        Graph g = new DefinitionLoader(builtIn, CronCheck.FIVE_FIELDS)
                .load(resource("orders_daily.toml"), DefinitionFormat.TOML).graph();
        assertThat(g.nodes()).hasSize(5);
        assertThat(g.edgeCount()).isEqualTo(3);
    }
}
