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

/**
 * The dashboard in real headless Chromium against Swale on embedded Kafka and Redis: graph page (DAG and
 * grid), run page (errors, rerun, cancel, refusals), live updates without reload, and the running-now
 * panel. Screenshots land in target/screenshots.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardBrowserIT extends IntegrationTest {
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

    /** Six nodes (assets shop_*); clean fails for one partition, audit runs long for another. */
    private static String sales(String g, String failing, String slow, int seconds) {
        return """
                [graph]
                name = "%1$s"
                partition = "daily"
                [[node]]
                name = "extract"
                produces = "shop_raw"
                operator = "shell"
                [node.params]
                command = "printf '{\\"rows\\": 1200, \\"path\\": \\"raw/{{ partition }}.csv\\"}'"
                [[node]]
                name = "clean"
                produces = "shop_clean"
                consumes = ["shop_raw"]
                operator = "shell"
                [node.params]
                command = "test {{ partition }} != %2$s || { echo 'raw/{{ partition }}.csv: 17 rows without an order id' >&2; exit 3; }; printf '{\\"rows\\": 1183}'"
                [[node]]
                name = "audit"
                produces = "shop_audit"
                consumes = ["shop_raw"]
                operator = "shell"
                [node.params]
                command = "test {{ partition }} != %3$s || sleep %4$d; printf '{\\"ok\\": true}'"
                [[node]]
                name = "totals"
                produces = "shop_totals"
                consumes = ["shop_clean"]
                operator = "noop"
                [[node]]
                name = "publish"
                produces = "shop_published"
                consumes = ["shop_totals", "shop_audit"]
                operator = "noop"
                [[node]]
                name = "report"
                after = ["publish"]
                trigger_rule = "all_done"
                operator = "noop"
                """.formatted(g, failing, slow, seconds);
    }

    @Test
    void graphPageDrawsTheDagAndTheGridNewestFirstAndFollowsTheRunningOne() {
        String g = "shop_orders"; // a name that reads well in the README's screenshot; no other test uses it
        assertThat(api.publish(sales(g, "20260913", "20260916", 8)).status()).isEqualTo(201);
        List<String> settled = List.of("20260910", "20260911", "20260912", "20260913", "20260914", "20260915");
        api.postJson("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"" + String.join("\",\"", settled) + "\"]}");
        for (String p : settled) {
            awaitSettled(g, p);
        }

        browser.open("graph.html?graph=" + g);
        api.start(g, "20260916");

        String running = "#grid tr[data-partition='20260916'] td[data-node='audit']";
        browser.waitUntil("the newest run shows audit running", LIVE,
                () -> browser.attribute(running, "data-state").orElse("").equals("running"));
        assertThat(browser.attributes("#grid tbody tr", "data-partition"))
                .containsExactly("20260916", "20260915", "20260914", "20260913", "20260912", "20260911", "20260910");
        assertThat(cell("20260913", "extract")).isEqualTo("succeeded");
        assertThat(cell("20260913", "clean")).isEqualTo("failed");
        assertThat(cell("20260913", "audit")).isEqualTo("succeeded");
        assertThat(cell("20260913", "totals")).isEqualTo("blocked");
        assertThat(cell("20260913", "publish")).isEqualTo("blocked");
        assertThat(cell("20260912", "report")).isEqualTo("succeeded");
        assertThat(cell("20260916", "publish")).isEqualTo("waiting");
        assertThat(browser.attribute("#grid tr[data-partition='20260913']", "data-state")).contains("failed");

        // The DAG: every node with its asset, an arrow per edge, coloured by the newest run.
        assertThat(browser.attributes("#dag g.node", "data-node"))
                .containsExactlyInAnyOrder("extract", "clean", "audit", "totals", "publish", "report");
        assertThat(browser.attributes("#dag path.edge", "data-to")).hasSize(6);
        assertThat(browser.present("#dag path.edge[data-from='clean'][data-to='totals']")).isTrue();
        assertThat(browser.text("#dag g.node[data-node='clean']")).contains("shop_clean");
        assertThat(dagState("audit")).isEqualTo("running");
        assertThat(dagState("extract")).isEqualTo("succeeded");
        browser.screenshot("dashboard-grid");

        // Selecting a row colours the DAG by that run.
        browser.click("#grid tr[data-partition='20260913'] td.run-state");
        browser.waitUntil("the DAG shows the failed run", LIVE, () -> dagState("clean").equals("failed"));
        assertThat(dagState("totals")).isEqualTo("blocked");
        assertThat(browser.text("#dag-title")).contains("20260913");

        // The running run settles and its row turns green with no reload.
        browser.script("window.sameDocument = true");
        browser.waitUntil("the newest run completes", LIVE,
                () -> browser.attribute("#grid tr[data-partition='20260916']", "data-state").orElse("").equals("complete"));
        assertThat(cell("20260916", "audit")).isEqualTo("succeeded");
        assertThat(cell("20260916", "report")).isEqualTo("succeeded");
        assertThat(browser.script("return window.sameDocument === true")).isEqualTo(true);

        // A filter the API refuses shows why; set back, the grid (the same as before it) is drawn again.
        browser.script("document.getElementById('filter-from').value = '20260915';"
                + "document.getElementById('filter-to').value = '20260911';"
                + "document.getElementById('grid-filter').requestSubmit()");
        browser.waitUntil("the refusal is shown", LIVE, () -> !browser.present("#grid tbody tr"));
        browser.script("document.getElementById('filter-from').value = '';"
                + "document.getElementById('filter-to').value = '';"
                + "document.getElementById('grid-filter').requestSubmit()");
        browser.waitUntil("the grid is back", LIVE, () -> browser.present("#grid tr[data-partition='20260913']"));

        // Phone width: nothing wider than the screen; the grid scrolls in its own box.
        browser.windowSize(390, 844);
        browser.waitUntil("the page fits a phone", Duration.ofSeconds(5), this::fitsWidth);
    }

    @Test
    void failedNodeShowsItsErrorAndARerunTurnsTheRunGreenWithoutReload(@TempDir Path dir) throws Exception {
        String g = "crm_sync"; // a name that reads well in the README's screenshot; no other test uses it
        Path fixed = dir.resolve("customers.csv");
        api.publish("""
                [graph]
                name = "%1$s"
                [[node]]
                name = "fetch"
                produces = "crm_customers"
                operator = "shell"
                [node.params]
                command = "test -f '%2$s' || { echo 'not yet: customers.csv is missing' >&2; exit 3; }; printf '{\\"customers\\": 1204, \\"source\\": \\"customers.csv\\"}'"
                [[node]]
                name = "contacts"
                produces = "crm_contacts"
                consumes = ["crm_customers"]
                operator = "noop"
                [[node]]
                name = "notify"
                after = ["fetch"]
                trigger_rule = "all_done"
                operator = "noop"
                """.formatted(g, fixed));
        api.start(g, "p");
        awaitSettled(g, "p");

        browser.open("run.html?graph=" + g + "&partition=p");
        browser.waitUntil("the run page shows fetch failed", LIVE, () -> nodeState("fetch").equals("failed"));
        assertThat(browser.text("#run-state .badge")).isEqualTo("failed");
        assertThat(browser.text(card("fetch") + " pre.error")).contains("exited with code 3").contains("not yet");
        assertThat(nodeState("contacts")).isEqualTo("blocked");
        assertThat(nodeState("notify")).isEqualTo("succeeded");
        assertThat(browser.text(card("fetch"))).contains(g + "-p-fetch-r0").contains("default");
        browser.screenshot("dashboard-run-failed");
        browser.script("window.sameDocument = true");

        // A confirmation that is declined sends nothing.
        browser.click(card("fetch") + " button.rerun");
        browser.click("#confirm-dialog[open] button.cancel");
        browser.waitUntil("the outcome says nothing was sent", LIVE, () -> browser.text("#outcome").contains("not sent"));
        assertThat(nodeState("fetch")).isEqualTo("failed");

        // A node that never ran is refused a rerun: it has no record.
        browser.click(card("contacts") + " button.rerun");
        assertThat(browser.text("#confirm-dialog[open]")).contains("Rerun contacts?");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the no_record refusal is shown", LIVE, () -> browser.text("#outcome").contains("no_record"));
        assertThat(browser.attribute("#outcome .outcome", "data-kind")).contains("refused");

        // Fix the cause, rerun: the page turns green by itself.
        Files.writeString(fixed, "ok");
        browser.click(card("fetch") + " button.rerun");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the rerun is submitted", LIVE, () -> browser.text("#outcome").contains("submitted"));
        assertThat(browser.text("#outcome")).contains(g + "-p-fetch-r1");
        browser.waitUntil("the run completes on the page", LIVE,
                () -> browser.text("#run-state .badge").equals("complete"));
        assertThat(nodeState("fetch")).isEqualTo("succeeded");
        browser.waitUntil("contacts succeeds on the page", LIVE, () -> nodeState("contacts").equals("succeeded"));
        assertThat(browser.present(card("fetch") + " pre.error")).isFalse();
        assertThat(browser.text(card("fetch"))).contains(g + "-p-fetch-r1");
        assertThat(browser.text(card("fetch") + " details.output pre"))
                .isEqualTo("{\n  \"customers\": 1204,\n  \"source\": \"customers.csv\"\n}");
        assertThat(browser.script("return window.sameDocument === true")).isEqualTo(true);
        browser.waitUntil("the running-now panel has cleared the rerun", LIVE,
                () -> !browser.present("#running li.running-item[data-run-id^='" + g + "-']"));
        browser.screenshot("dashboard-run");

        // Break it again: fetch fails on its next rerun, and its downstream is refused (not_ready).
        Files.delete(fixed);
        browser.click(card("fetch") + " button.rerun");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the second rerun is submitted", LIVE, () -> browser.text("#outcome").contains(g + "-p-fetch-r2"));
        browser.waitUntil("the run fails again on the page", LIVE, () -> browser.text("#run-state .badge").equals("failed"));
        browser.click(card("contacts") + " button.rerun");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the not_ready refusal is shown", LIVE, () -> browser.text("#outcome").contains("not_ready"));
        assertThat(browser.attribute("#outcome .outcome", "data-kind")).contains("refused");
        assertThat(browser.script("return window.sameDocument === true")).isEqualTo(true);

        browser.darkTheme(true);
        browser.waitUntil("the dark theme applies", Duration.ofSeconds(5), () -> luminance(
                (String) browser.script("return getComputedStyle(document.body).backgroundColor")) < 0.1);
        browser.screenshot("dashboard-run-dark");
        browser.windowSize(390, 844);
        browser.waitUntil("the run page fits a phone", Duration.ofSeconds(5), this::fitsWidth);
        browser.screenshot("dashboard-run-phone");
    }

    @Test
    void aRerunThatRunsIsRefusedASecondRerunAndCancelStopsIt(@TempDir Path dir) {
        String g = unique("stop");
        Path marker = dir.resolve("ran-once");
        api.publish("""
                [graph]
                name = "%1$s"
                [[node]]
                name = "nap"
                produces = "%1$s_nap"
                operator = "shell"
                [node.params]
                command = "if test -f '%2$s'; then sleep 120; fi; touch '%2$s'; printf '{}'"
                [[node]]
                name = "next"
                produces = "%1$s_next"
                consumes = ["%1$s_nap"]
                operator = "noop"
                """.formatted(g, marker));
        api.start(g, "p");
        assertThat(awaitSettled(g, "p").get("state").asString()).isEqualTo("complete");

        browser.open("run.html?graph=" + g + "&partition=p");
        browser.waitUntil("the run page shows the run complete", LIVE,
                () -> browser.text("#run-state .badge").equals("complete"));
        assertThat(browser.script("return document.getElementById('cancel').disabled")).isEqualTo(true);

        // The rerun of nap now sleeps: the page follows it, and the running-now panel lists it.
        browser.click(card("nap") + " button.rerun");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the rerun is submitted", LIVE, () -> browser.text("#outcome").contains(g + "-p-nap-r1"));
        browser.waitUntil("nap runs", LIVE, () -> nodeState("nap").equals("running"));
        assertThat(browser.text("#run-state .badge")).isEqualTo("active");
        String item = "#running section.pool[data-pool='default'] li[data-run-id='" + g + "-p-nap-r1']";
        browser.waitUntil("the running-now panel lists nap", LIVE, () -> browser.present(item));

        // A second rerun while the first still runs is refused (active).
        browser.click(card("nap") + " button.rerun");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the active refusal is shown", LIVE, () -> browser.text("#outcome").contains("(active)"));
        assertThat(browser.attribute("#outcome .outcome", "data-kind")).contains("refused");

        browser.click("#cancel");
        assertThat(browser.text("#confirm-dialog[open]")).contains("Cancel this run?");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the cancel is confirmed", LIVE, () -> browser.text("#outcome").contains("Run cancelled"));
        browser.waitUntil("the run shows cancelled", LIVE, () -> browser.text("#run-state .badge").equals("cancelled"));
        browser.waitUntil("nap shows cancelled", LIVE, () -> nodeState("nap").equals("cancelled"));
        assertThat(browser.script("return document.getElementById('cancel').disabled")).isEqualTo(true);
        browser.waitUntil("the running-now panel clears nap", LIVE, () -> !browser.present(item));
        assertThat(api.run(g, "p").get("state").asString()).isEqualTo("cancelled");
    }

    @Test
    void runningNowShowsALongTaskWhileItRunsAndClearsItAfter() {
        String g = unique("long");
        api.publish(Graphs.slowThenNext(g, 5));
        browser.open("");
        browser.waitUntil("the page is live", LIVE, () -> browser.attribute("#live", "data-state").orElse("").equals("on"));
        browser.script("window.sameDocument = true");

        api.start(g, "p");
        String item = "#running section.pool[data-pool='default'] li[data-run-id='" + g + "-p-slow-r0']";
        browser.waitUntil("the running-now panel shows slow", LIVE, () -> browser.present(item));
        assertThat(browser.text(item)).contains("slow").contains(g + " · p").contains("attempt 1/1");
        assertThat(browser.text("#running section.pool[data-pool='default'] .count")).contains("/ 4 slots");
        browser.screenshot("dashboard-running-now");

        browser.waitUntil("the running-now panel clears slow", LIVE, () -> !browser.present(item));
        browser.waitUntil("the graph card shows the run complete", LIVE, () -> browser
                .attribute("article[data-graph='" + g + "'] .recent a[data-partition='p']", "data-state")
                .orElse("").equals("complete"));
        // its counts may be a second behind the run; the page loads once more after the last change, so they settle
        String counts = "article[data-graph='" + g + "'] .counts li";
        browser.waitUntil("the graph card counts the run complete", LIVE, () ->
                browser.text(counts + "[data-state='complete']").endsWith("complete 1")
                        && browser.text(counts + "[data-state='active']").endsWith("active 0"));
        assertThat(browser.script("return window.sameDocument === true")).isEqualTo(true);
        assertThat(api.run(g, "p").get("state").asString()).isEqualTo("complete");
    }

    private String cell(String partition, String node) {
        return browser.attribute("#grid tr[data-partition='" + partition + "'] td[data-node='" + node + "']", "data-state")
                .orElse("absent");
    }

    private String dagState(String node) {
        return browser.attribute("#dag g.node[data-node='" + node + "']", "data-state").orElse("absent");
    }

    private static String card(String node) {
        return "article.node-card[data-node='" + node + "']";
    }

    private String nodeState(String node) {
        return browser.attribute(card(node), "data-state").orElse("absent");
    }

    private boolean fitsWidth() {
        return (Boolean) browser.script(
                "return document.documentElement.scrollWidth <= document.documentElement.clientWidth");
    }

    /** Relative luminance of a CSS rgb() colour, 0 (black) to 1 (white). */
    private static double luminance(String rgb) {
        String[] parts = rgb.replaceAll("[^0-9,.]", "").split(",");
        return (0.2126 * Double.parseDouble(parts[0]) + 0.7152 * Double.parseDouble(parts[1])
                + 0.0722 * Double.parseDouble(parts[2])) / 255;
    }
}
