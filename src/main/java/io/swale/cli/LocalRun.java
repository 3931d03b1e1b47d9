package io.swale.cli;

import io.swale.SwaleApplication;
import io.swale.config.ConfiguredPools;
import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.graph.Graph;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.record.NodeRecord;
import io.swale.record.RunState;
import io.swale.run.DefinitionCatalog;
import io.swale.run.GraphRuns;
import io.swale.run.RunRecords;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.RunView;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The local one-shot run (spec §13): the application in this process with the scheduler and pool roles on
 * embedded Kafka and Redis and no web server; the definition is put (no pointer, no graph record), the run
 * started, and each node printed once when its record appears.
 */
final class LocalRun {
    private static final long POLL_MS = 100;
    private final PrintWriter out;
    private final int concurrency;

    LocalRun(PrintWriter out, int concurrency) {
        this.out = out;
        this.concurrency = concurrency;
    }

    int run(byte[] text, DefinitionFormat format, Partition partition) {
        try (ConfigurableApplicationContext ctx = start()) {
            DefinitionCatalog catalog = ctx.getBean(DefinitionCatalog.class);
            Definition stored = catalog.put(text, format);
            Graph graph = stored.graph();
            ctx.getBean(ConfiguredPools.class).ensure(new LinkedHashSet<>(graph.pools()));
            GraphRuns.Started started = ctx.getBean(GraphRuns.class).startRun(stored.hash(), partition);
            RunKey key = new RunKey(graph.name(), partition);
            out.println(started.started()
                    ? "started " + key + ": " + started.submitted().size() + " root(s) submitted"
                    : "resuming " + key);
            out.flush();
            return follow(ctx.getBean(RunStore.class), ctx.getBean(DefinitionCatalog.class), key);
        }
    }

    private int follow(RunStore runs, DefinitionCatalog catalog, RunKey key) {
        Set<String> printed = new HashSet<>();
        while (true) {
            Optional<RunView> view = runs.read(key);
            if (view.isEmpty()) {
                throw new IllegalStateException("the run " + key + " disappeared");
            }
            Graph graph = catalog.get(view.get().run().definition()).graph();
            Map<String, NodeRecord> records = RunRecords.byNode(graph, view.get());
            for (Node n : graph.nodes()) {
                NodeRecord r = records.get(n.name());
                if (r != null && printed.add(r.runId())) {
                    print(n.name(), r);
                }
            }
            RunState state = view.get().run().state();
            if (state != RunState.ACTIVE) {
                out.println("run " + key + " " + state.wireName());
                out.flush();
                return state == RunState.COMPLETE ? SwaleCli.OK : SwaleCli.FAILED;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out.println("interrupted");
                return 130;
            }
        }
    }

    private void print(String node, NodeRecord r) {
        out.println(node + ": " + r.status().wireName() + " " + r.runId());
        r.error().ifPresent(e -> e.lines().forEach(line -> out.println("    " + line)));
        out.flush();
    }

    /** Command-line arguments outrank application.yml, so these settings win over the service's. */
    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(SwaleApplication.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                .run("--swale.embedded=true",
                        "--swale.roles=scheduler,pool",
                        "--swale.examples=",
                        "--swale.auto-create-pools=true",
                        "--swale.default-slots=" + concurrency,
                        "--swale.scheduler.reconcile-interval=10s",
                        "--swale.ops.lag-interval=1h",
                        "--spring.quartz.scheduler-name=swale-local-run",
                        "--logging.level.root=WARN",
                        "--logging.level.io.swale=WARN",
                        "--logging.level.org.apache.kafka=ERROR",
                        "--logging.level.kafka=ERROR",
                        "--logging.level.state.change.logger=ERROR");
    }
}
