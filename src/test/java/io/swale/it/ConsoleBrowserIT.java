package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The operator console in real headless Chromium: backfill (dry run, then start), start a run with the
 * partition picker, the dead-letter rerun, the pools page following a running task, the timeline of a run
 * with a retried node, durations, the grid filter, definitions and asset lineage. Screenshots land in
 * target/screenshots.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleBrowserIT extends IntegrationTest {
    private static final Duration LIVE = Duration.ofSeconds(30);

    private Browser browser;

    @BeforeEach
    void browser() {
        if (browser == null) {
            browser = Browser.start(port);
        }
        browser.windowSize(1280, 900);
        browser.darkTheme(false);
    }

    @AfterAll
    void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void backfillPreviewsTheRangeStartsNothingThenStartsWhatItListed() {
        String g = "web_traffic"; // reads well in the screenshot; no other test uses it
        api.publish(Graphs.daily(g, false));
        api.start(g, "20260903");
        awaitSettled(g, "20260903");

        browser.open("backfill.html?graph=" + g);
        setValue("#from", "2026-09-01");
        setValue("#to", "2026-09-06");
        browser.click("#preview");
        browser.waitUntil("the dry run lists the plan", LIVE, () -> browser.present(".plan-summary"));
        assertThat(browser.attribute(".plan-summary", "data-start")).contains("5");
        assertThat(browser.attribute(".plan-summary", "data-skip")).contains("1");
        assertThat(browser.attributes("ol.plan li", "data-partition"))
                .containsExactly("20260901", "20260902", "20260903", "20260904", "20260905", "20260906");
        assertThat(browser.attribute("ol.plan li[data-partition='20260903']", "data-action")).contains("skip");
        assertThat(browser.text(".plan-summary")).startsWith("Would start 5");
        assertThat(api.get("/api/v1/graphs/" + g + "/runs").body().size()).as("a dry run starts nothing").isEqualTo(1);
        browser.screenshot("dashboard-backfill");

        // Changing the range invalidates the preview: Start waits for a new one.
        setValue("#to", "2026-09-05");
        assertThat(browser.script("return document.getElementById('start').disabled")).isEqualTo(true);
        browser.click("#preview");
        browser.waitUntil("the new plan is listed", LIVE, () -> browser.attributes("ol.plan li", "data-partition").size() == 5);
        browser.click("#start");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the backfill is sent", LIVE, () -> browser.text("#outcome").contains("4 run(s) started"));
        for (String p : List.of("20260901", "20260902", "20260904", "20260905")) {
            assertThat(awaitSettled(g, p).get("state").asString()).isEqualTo("complete");
        }
        assertThat(api.get("/api/v1/graphs/" + g + "/runs/20260906").status()).as("outside the range").isEqualTo(404);
    }

    @Test
    void startARunWithThePartitionPickerAndFilterTheGridByState() {
        String g = unique("pick");
        api.publish(ConsoleApiIT.failingOn(g, "20261002"));
        browser.open("graph.html?graph=" + g);
        browser.waitUntil("the start form fits a daily graph", LIVE,
                () -> "date".equals(browser.attribute("#start-partition", "type").orElse("")));
        for (String day : List.of("2026-10-01", "2026-10-02", "2026-10-03")) {
            setValue("#start-partition", day);
            browser.click("#start-run");
            browser.click("#confirm-dialog[open] button.confirm");
            String key = day.replace("-", "");
            browser.waitUntil("the run of " + key + " is started", LIVE, () -> browser.text("#outcome").contains(g + " / " + key));
            awaitSettled(g, key);
        }
        setValue("#start-partition", "2026-10-01");
        browser.click("#start-run");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("a second start of a partition is refused", LIVE, () -> browser.text("#outcome").contains("already has a run"));

        browser.waitUntil("the grid shows the three runs", LIVE, () -> browser.all("#grid tbody tr").size() == 3);
        browser.script("const s = document.getElementById('filter-state'); s.value = 'failed'; s.dispatchEvent(new Event('change'));");
        browser.waitUntil("the grid shows only the failed run", LIVE,
                () -> browser.attributes("#grid tbody tr", "data-partition").equals(List.of("20261002")));
        assertThat(browser.driver().getCurrentUrl()).contains("state=failed");
        browser.script("const s = document.getElementById('filter-state'); s.value = ''; s.dispatchEvent(new Event('change'));");
        setValue("#filter-from", "20261002");
        browser.click("#filter-apply");
        browser.waitUntil("the grid shows the range", LIVE,
                () -> browser.attributes("#grid tbody tr", "data-partition").equals(List.of("20261003", "20261002")));

        // Durations: a point per run of the chosen node, and the slowest nodes with a sparkline each.
        browser.waitUntil("the duration form lists the nodes", LIVE, () -> browser.present("#trend-node option[value='load']"));
        browser.script("const s = document.getElementById('trend-node'); s.value = 'load'; s.dispatchEvent(new Event('change'));");
        browser.waitUntil("the duration chart is drawn", LIVE, () -> browser.all("svg.trend circle.point").size() == 3);
        assertThat(browser.attributes("svg.trend circle.point", "data-partition"))
                .containsExactly("20261001", "20261002", "20261003");
        assertThat(browser.all("table.slowest tbody tr")).hasSize(2);
        browser.screenshot("dashboard-graph-console");
    }

    @Test
    void aDeadLetterShowsItsAttemptsAndItsRerunGoesThroughTheRerunPath(@TempDir Path dir) throws Exception {
        String g = unique("dlrerun");
        Path fixed = dir.resolve("fixed");
        api.publish(Graphs.failing(g, fixed.toString()));
        api.start(g, "p");
        awaitSettled(g, "p");
        String runId = g + "-p-flaky-r0";

        browser.open("dead-letters.html?channel=pool.default");
        // Letters are oldest first: page on until this test's letter shows (other tests' letters come before it).
        browser.waitUntil("the letter of " + runId + " is listed", LIVE, () -> {
            if (browser.text("#letters").contains(g + " / p / flaky")) {
                return true;
            }
            if (!browser.present("#letters-pager .range")) {
                return false; // a page is loading
            }
            if (browser.present("#letters-pager button.older:not([disabled])")) {
                browser.click("#letters-pager button.older");
            } else {
                browser.open("dead-letters.html?channel=pool.default");
            }
            return false;
        });
        String mine = "article.letter:has(a[href*='graph=" + g + "'])";
        assertThat(browser.text(mine + " pre.error")).contains("not yet");
        browser.script("document.querySelector(arguments[0] + ' details.history').open = true", mine);
        assertThat(browser.all(mine + " table.attempts tbody tr")).hasSize(1);
        assertThat(browser.text(mine + " table.attempts tbody tr")).contains("failed").contains("not yet");
        assertThat(browser.text("#channels a.current")).startsWith("pool.default");
        browser.screenshot("dashboard-dead-letters");

        Files.writeString(fixed, "ok");
        browser.click(mine + " button.rerun");
        assertThat(browser.text("#confirm-dialog[open]")).contains("new run id");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the rerun is submitted", LIVE, () -> browser.text("#outcome").contains(g + "-p-flaky-r1"));
        JsonNode run = awaitSettled(g, "p");
        assertThat(run.get("state").asString()).isEqualTo("complete");
        assertThat(SwaleClient.node(run, "flaky").get("record").get("runId").asString()).isEqualTo(g + "-p-flaky-r1");
    }

    @Test
    void poolsPageCountsARunningTaskLiveAndClearsIt() {
        String g = unique("poolpage");
        api.publish("""
                [graph]
                name = "%1$s"
                [[node]]
                name = "slow"
                produces = "%1$s_slow"
                operator = "shell"
                pool = "solo"
                [node.params]
                command = "sleep 6; printf '{}'"
                """.formatted(g));
        browser.open("pools.html");
        String running = "article.pool-card[data-pool='solo'] .running-count";
        browser.waitUntil("the solo pool shows nothing running", LIVE, () -> browser.text(running).equals("0"));
        assertThat(browser.text("article.pool-card[data-pool='solo'] .slots")).isEqualTo("1");
        assertThat(browser.present("article.pool-card[data-pool='default']")).isTrue();
        browser.script("window.sameDocument = true");

        api.start(g, "p");
        browser.waitUntil("the solo pool counts the running task", LIVE, () -> browser.text(running).equals("1"));
        assertThat(browser.attribute("article.pool-card[data-pool='solo'] .meter", "aria-valuenow")).contains("1");
        browser.screenshot("dashboard-pools");
        browser.waitUntil("the solo pool is free again", LIVE, () -> browser.text(running).equals("0"));
        assertThat(browser.script("return window.sameDocument === true")).isEqualTo(true);
        assertThat(awaitSettled(g, "p").get("state").asString()).isEqualTo("complete");
    }

    @Test
    void runTimelineDrawsTheQueueEachAttemptAndTheRetry(@TempDir Path dir) {
        String g = "ingest_orders"; // reads well in the screenshot; no other test uses it
        api.publish(ConsoleApiIT.retriedOnce(g, dir.resolve("tried")));
        api.start(g, "p");
        assertThat(awaitSettled(g, "p").get("state").asString()).isEqualTo("complete");

        browser.open("run.html?graph=" + g + "&partition=p");
        String flaky = "#gantt g.gantt-row[data-node='flaky']";
        browser.waitUntil("the timeline draws both attempts of flaky", LIVE,
                () -> browser.all(flaky + " rect.bar.k-run").size() == 2);
        assertThat(browser.attributes(flaky + " rect.bar.k-run", "data-outcome")).containsExactly("retry", "succeeded");
        assertThat(browser.attributes(flaky + " rect.bar.k-run", "data-attempt")).containsExactly("1", "2");
        assertThat(browser.present(flaky + " rect.bar.k-wait")).as("the wait before the retry").isTrue();
        assertThat(browser.attribute(flaky, "data-retried")).contains("true");
        assertThat(browser.text(flaky + " text.label")).contains("↻");
        assertThat(browser.attributes("#gantt g.gantt-row[data-node='after'] rect.bar.k-run", "data-outcome"))
                .containsExactly("succeeded");
        // bars are placed in time: the retry starts after the first attempt ends
        Number firstEnd = (Number) browser.script("const r = document.querySelectorAll(arguments[0]); "
                + "return r[0].x.baseVal.value + r[0].width.baseVal.value;", flaky + " rect.bar.k-run");
        Number secondStart = (Number) browser.script("return document.querySelectorAll(arguments[0])[1].x.baseVal.value;",
                flaky + " rect.bar.k-run");
        assertThat(secondStart.doubleValue()).isGreaterThan(firstEnd.doubleValue());
        browser.screenshot("dashboard-timeline");

        // A rerun started elsewhere appears on the timeline without reload.
        browser.script("window.sameDocument = true");
        assertThat(api.postJson("/api/v1/graphs/" + g + "/runs/p/nodes/after/rerun", "").status()).isEqualTo(200);
        browser.waitUntil("the rerun of after is drawn", LIVE, () -> browser
                .attributes("#gantt g.gantt-row[data-node='after'] rect.bar.k-run", "data-outcome")
                .equals(List.of("succeeded", "succeeded")));
        assertThat(browser.attributes("#gantt g.gantt-row[data-node='after'] rect.bar.k-run", "data-run-id"))
                .containsExactly(g + "-p-after-r0", g + "-p-after-r1");
        assertThat(browser.script("return window.sameDocument === true")).isEqualTo(true);
    }

    @Test
    void definitionPageShowsTheSourceItsHistoryAndAnOlderHash() {
        String g = unique("defpage");
        String v1 = Graphs.chain(g, 1);
        String v2 = "# second version\n" + Graphs.chain(g, 2);
        String h1 = api.publish(v1).body().get("hash").asString();
        String h2 = api.publish(v2).body().get("hash").asString();

        browser.open("graph.html?graph=" + g);
        browser.click("a[href='definition.html?graph=" + g + "']");
        browser.waitUntil("the definition page shows the source", LIVE,
                () -> browser.attribute("#source", "data-hash").orElse("").equals(h2));
        assertThat((String) browser.script("return document.getElementById('source').textContent")).isEqualTo(v2);
        assertThat(browser.text("#adoption-state")).isEqualTo("adopted");
        assertThat(browser.attributes("ol.history-list li", "data-event"))
                .containsExactly("adopted", "published", "adopted", "published");
        browser.click("ol.history-list li[data-hash='" + h1 + "'] a");
        browser.waitUntil("the older source is shown", LIVE,
                () -> browser.attribute("#source", "data-hash").orElse("").equals(h1));
        assertThat((String) browser.script("return document.getElementById('source').textContent")).isEqualTo(v1);
    }

    @Test
    void assetsPageDrawsTheLineageAndTheNewestRecordOfEachAsset() {
        String g = unique("assetpage");
        api.publish(Graphs.chain(g, 3));
        api.start(g, "p");
        awaitSettled(g, "p");

        browser.open("assets.html");
        browser.waitUntil("the assets page lists the graph", LIVE,
                () -> browser.present("#lineage-graph option[value='" + g + "']"));
        browser.script("const s = document.getElementById('lineage-graph'); s.value = arguments[0]; "
                + "s.dispatchEvent(new Event('change'));", g);
        browser.waitUntil("only this graph's assets are drawn", LIVE, () -> browser.all("#lineage g.node").size() == 3);
        assertThat(browser.present("#lineage path.edge[data-from='" + g + "_n0'][data-to='" + g + "_n1']")).isTrue();
        String row = "tr[data-asset='" + g + "_n1']";
        assertThat(browser.text(row + " td.producer")).isEqualTo(g + " · n1");
        assertThat(browser.text(row + " td.upstreams")).isEqualTo(g + "_n0");
        assertThat(browser.text(row + " td.consumers")).isEqualTo(g + " · n2");
        assertThat(browser.text(row + " td.newest")).contains("succeeded").contains("p");
        assertThat(browser.attribute("#lineage g.node[data-node='" + g + "_n2']", "data-state")).contains("succeeded");
    }

    /** Sets an input's value as a user would, so the page hears the change. */
    private void setValue(String css, String value) {
        browser.waitUntil(css + " exists", LIVE, () -> browser.present(css));
        browser.script("const e = document.querySelector(arguments[0]); e.value = arguments[1]; "
                + "e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));",
                css, value);
    }
}
