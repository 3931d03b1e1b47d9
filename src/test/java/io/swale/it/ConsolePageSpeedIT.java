package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.swale.definition.Definition;
import io.swale.definition.DefinitionFormat;
import io.swale.graph.Node;
import io.swale.graph.Partition;
import io.swale.record.GraphRecord;
import io.swale.record.GraphRunRecord;
import io.swale.record.NodeRecord;
import io.swale.record.NodeStatus;
import io.swale.record.RunState;
import io.swale.run.DefinitionCatalog;
import io.swale.run.RunRecords;
import io.swale.store.DefinitionStore;
import io.swale.store.PendingInstance;
import io.swale.store.RunKey;
import io.swale.store.RunStore;
import io.swale.store.TaskInput;
import io.swale.store.TaskStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A measurement, not a check of speed: how long the dashboard's pages take to first render, and the API
 * calls behind them, with a graph of 10,000 runs and a graph of 200 nodes. Runs are written straight into
 * Redis through the store ports (a run record, its task instances submitted, claimed and finished with node
 * records, then settled), on an api-only replica so no scheduler or worker touches them. Timings come from
 * real headless Chromium (a MutationObserver marks when each page's content first appears; Resource Timing
 * gives each API call) and are written to target/pagespeed.txt. Only what was rendered is asserted.
 *
 * <p>Skipped unless {@code -Dswale.pagespeed=true}: writing the runs takes minutes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.examples=", "swale.roles=api"})
class ConsolePageSpeedIT {
    static final int LONG_RUNS = Integer.getInteger("swale.pagespeed.runs", 10_000);
    static final int WIDE_NODES = 200;
    static final int WIDE_RUNS = 50;
    static final int REPEAT = 5;
    static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;

    /** Marks, per selector, when content matching it first appears (installed before any page script). */
    static final String OBSERVER = """
            window.__marks = {};
            const sels = ["article.graph-card", "#grid tbody tr", "#dag g.node", "svg.trend circle.point",
              "article.node-card", "#gantt g.gantt-row", "article.pool-card", "article.letter", "#channels a.chip",
              "tr[data-asset]", "#start-partition", "ol.history-list li", "#source[data-hash]", "#from"];
            new MutationObserver(() => {
              for (const s of sels) if (!(s in window.__marks) && document.querySelector(s)) window.__marks[s] = performance.now();
            }).observe(document, { subtree: true, childList: true, attributes: true });
            """;

    @LocalServerPort
    int port;

    @Autowired
    RunStore runs;

    @Autowired
    TaskStore tasks;

    @Autowired
    DefinitionStore definitions;

    @Autowired
    DefinitionCatalog catalog;

    record Page(String name, String path, String selector, int expected) {}

    @Test
    void measurePageLoadWithTenThousandRunsAndTwoHundredNodes() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("swale.pagespeed"), "a measurement: run with -Dswale.pagespeed=true");
        StringBuilder report = new StringBuilder();
        Definition longGraph = adopt(graph("bench_long", 6));
        Definition wideGraph = adopt(graph("bench_wide", WIDE_NODES));
        long t0 = System.nanoTime();
        write(longGraph, LONG_RUNS);
        long t1 = System.nanoTime();
        write(wideGraph, WIDE_RUNS);
        long t2 = System.nanoTime();
        report.append("wrote ").append(LONG_RUNS).append(" runs × 6 nodes of bench_long in ")
                .append((t1 - t0) / 1_000_000).append(" ms and ").append(WIDE_RUNS).append(" runs × ").append(WIDE_NODES)
                .append(" nodes of bench_wide in ").append((t2 - t1) / 1_000_000).append(" ms\n");

        String newestLong = LocalDate.of(2000, 1, 1).plusDays(LONG_RUNS - 1).format(DAY);
        String newestWide = LocalDate.of(2000, 1, 1).plusDays(WIDE_RUNS - 1).format(DAY);
        List<Page> pages = List.of(
                new Page("graphs", "", "article.graph-card", 2),
                new Page("graph bench_long (grid page 1)", "graph.html?graph=bench_long", "#grid tbody tr", 25),
                new Page("graph bench_long, state=failed, page 20", "graph.html?graph=bench_long&state=failed&offset=475",
                        "#grid tbody tr", 25),
                new Page("graph bench_long, partition range", "graph.html?graph=bench_long&from=20100101&to=20100131",
                        "#grid tbody tr", 25),
                new Page("graph bench_wide (200 nodes)", "graph.html?graph=bench_wide", "#grid tbody tr", 25),
                new Page("run bench_long", "run.html?graph=bench_long&partition=" + newestLong, "#gantt g.gantt-row", 6),
                new Page("run bench_wide (200 nodes)", "run.html?graph=bench_wide&partition=" + newestWide, "#gantt g.gantt-row",
                        WIDE_NODES),
                new Page("pools", "pools.html", "article.pool-card", 1),
                new Page("assets", "assets.html", "tr[data-asset]", 6 + WIDE_NODES),
                new Page("definition bench_wide", "definition.html?graph=bench_wide", "#source[data-hash]", 1),
                new Page("backfill bench_long", "backfill.html?graph=bench_long", "#from", 1));

        try (Browser browser = Browser.start(port)) {
            browser.driver().executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", OBSERVER));
            report.append(String.format("%-42s %8s %8s   %s%n", "page (median of " + REPEAT + ")", "DCL ms", "render ms",
                    "API calls (median ms)"));
            for (Page page : pages) {
                List<Double> renders = new ArrayList<>();
                List<Double> dcls = new ArrayList<>();
                Map<String, List<Double>> calls = new LinkedHashMap<>();
                for (int i = 0; i <= REPEAT; i++) {
                    browser.open(page.path());
                    browser.waitUntil(page.name() + " renders", Duration.ofSeconds(60),
                            () -> browser.all(page.selector()).size() >= page.expected());
                    if (i == 0) {
                        continue; // warm-up: class loading, caches, the JIT
                    }
                    Object mark = browser.script("return window.__marks ? window.__marks[arguments[0]] : 'no observer'", page.selector());
                    if (!(mark instanceof Number n)) {
                        throw new AssertionError("no render mark for " + page.name() + ": " + mark);
                    }
                    renders.add(n.doubleValue());
                    dcls.add(((Number) browser.script(
                            "return performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")).doubleValue());
                    @SuppressWarnings("unchecked")
                    List<Map<String, Object>> entries = (List<Map<String, Object>>) browser.script(
                            "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/v1/')"
                                    + " && !e.name.includes('/events')).map(e => ({name: new URL(e.name).pathname"
                                    + " .replace(/^\\/api\\/v1/, '') + new URL(e.name).search, ms: e.duration}))");
                    for (Map<String, Object> e : entries) {
                        calls.computeIfAbsent((String) e.get("name"), k -> new ArrayList<>())
                                .add(((Number) e.get("ms")).doubleValue());
                    }
                }
                StringBuilder api = new StringBuilder();
                calls.forEach((name, ms) -> api.append(name).append(' ').append(Math.round(median(ms))).append("; "));
                report.append(String.format("%-42s %8.0f %8.0f   %s%n", page.name(), median(dcls), median(renders), api));
                Files.writeString(Path.of("target", "pagespeed.txt"), report.toString(), StandardCharsets.UTF_8);
            }
        }
        Path out = Path.of("target", "pagespeed.txt");
        Files.writeString(out, report.toString(), StandardCharsets.UTF_8);
        System.out.println(report);
        assertThat(report.toString()).contains("bench_wide (200 nodes)");
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(Comparator.naturalOrder());
        return s.isEmpty() ? Double.NaN : s.get(s.size() / 2);
    }

    /** A daily graph of n noop asset nodes: each consumes the one before and, every fifth, the one five back. */
    private static String graph(String name, int n) {
        StringBuilder s = new StringBuilder("[graph]\nname = \"" + name + "\"\npartition = \"daily\"\n");
        for (int i = 0; i < n; i++) {
            s.append("[[node]]\nname = \"step_").append(i).append("\"\nproduces = \"").append(name).append("_").append(i)
                    .append("\"\noperator = \"noop\"\n");
            List<String> consumes = new ArrayList<>();
            if (i > 0) {
                consumes.add("\"" + name + "_" + (i - 1) + "\"");
            }
            if (i >= 5 && i % 5 == 0) {
                consumes.add("\"" + name + "_" + (i - 5) + "\"");
            }
            if (!consumes.isEmpty()) {
                s.append("consumes = [").append(String.join(", ", consumes)).append("]\n");
            }
        }
        return s.toString();
    }

    /** Stores, points at and adopts a definition, as publish and the scheduler's sync would. */
    private Definition adopt(String toml) {
        Definition d = catalog.put(toml.getBytes(StandardCharsets.UTF_8), DefinitionFormat.TOML);
        definitions.movePointer(d.graph().name(), d.hash());
        definitions.putGraphRecord(d.graph().name(), new GraphRecord(d.hash(), System.currentTimeMillis()));
        return d;
    }

    /** Writes `count` settled runs, one a day from 2000-01-01; every tenth fails at its last node. */
    private void write(Definition d, int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int day = i;
                done.add(pool.submit(() -> {
                    writeRun(d, Partition.of(LocalDate.of(2000, 1, 1).plusDays(day).format(DAY)), day % 10 == 9);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void writeRun(Definition d, Partition partition, boolean fails) {
        RunKey key = new RunKey(d.graph().name(), partition);
        long start = System.currentTimeMillis();
        GraphRunRecord started = GraphRunRecord.started(d.hash(), start);
        if (!runs.create(key, started)) {
            return;
        }
        List<Node> nodes = d.graph().nodes();
        List<TaskStore.SubmitRequest> submits = new ArrayList<>();
        List<TaskStore.ClaimRequest> claims = new ArrayList<>();
        for (Node n : nodes) {
            String runId = key.runId(n.name(), 0);
            submits.add(new TaskStore.SubmitRequest(runId,
                    new PendingInstance(n.name(), n.produces(), d.hash(), 0, n.pool(), n.maxAttempts()),
                    new TaskInput(n.operator(), JsonNodeFactory.instance.objectNode(), Map.of(), Map.of())));
            claims.add(new TaskStore.ClaimRequest(key, runId));
        }
        tasks.submitAll(key, submits);
        List<TaskStore.Claim> claimed = tasks.claimAll(claims, 60_000, "pagespeed");
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            if (!(claimed.get(i) instanceof TaskStore.Claim.Claimed c)) {
                throw new IllegalStateException("claim refused: " + claimed.get(i));
            }
            boolean failed = fails && i == nodes.size() - 1;
            NodeRecord rec = new NodeRecord(failed ? NodeStatus.FAILED : NodeStatus.SUCCEEDED, key.runId(n.name(), 0), d.hash(),
                    0, System.currentTimeMillis(), Optional.of(JsonNodeFactory.instance.objectNode().put("rows", i)), false,
                    failed ? Optional.of("pagespeed: the last node fails in every tenth run") : Optional.empty());
            tasks.finish(key, RunRecords.field(n), c.token(), rec);
        }
        var view = runs.read(key).orElseThrow();
        runs.compareAndSettle(key, view.version(), started.withState(fails ? RunState.FAILED : RunState.COMPLETE,
                Optional.of(System.currentTimeMillis())));
    }
}
