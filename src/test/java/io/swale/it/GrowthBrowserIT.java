package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Declared growth on the run page in real headless Chromium (docs/dynamic-graphs.md §8.8): the grown nodes appear
 * in the run's DAG and as cards, each marked {@code grown by <node>}, with the edge to the downstream they delay.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrowthBrowserIT extends IntegrationTest {
    private static final Duration LIVE = Duration.ofSeconds(40);

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
    void runPageShowsGrownNodesMarkedWithTheirGrower(@TempDir Path dir) throws Exception {
        String g = unique("grown_page");
        Path grow = dir.resolve("grow.json");
        ReleaseGates.Gate release = gates.gate("release");
        Files.writeString(grow, """
                {"swale": {"grow": {"node": [
                  {"name": "fix", "operator": "shell", "params": {"command": "%s"}},
                  {"name": "check", "after": ["fix"], "operator": "noop"}]}}}""".formatted(release.awaitCommand()));
        api.publish("""
                [graph]
                name = "%1$s"
                [[node]]
                name = "decide"
                operator = "shell"
                [node.params]
                command = "cat %2$s"
                [[node]]
                name = "report"
                after = ["decide"]
                operator = "noop"
                """.formatted(g, grow));
        api.start(g, "p");

        browser.open("run.html?graph=" + g + "&partition=p");
        browser.waitUntil("the grown node is drawn while it runs", LIVE,
                () -> browser.text("#dag g.node[data-node='fix'] text.grown").equals("grown by decide"));
        assertThat(browser.text("#dag g.node[data-node='check'] text.grown")).isEqualTo("grown by decide");
        assertThat(browser.text(card("fix") + " .grown")).isEqualTo("grown by decide");
        assertThat(browser.text("#dag g.node[data-node='report']")).doesNotContain("grown by");
        // the downstream waits for the grown leaf: an edge check → report
        assertThat(browser.attribute("#dag path.edge[data-from='check'][data-to='report']", "data-to")).contains("report");
        assertThat(browser.attribute(card("report"), "data-state").orElse("")).isNotEqualTo("succeeded");
        browser.screenshot("dashboard-grown-running");

        release.open();
        browser.waitUntil("the run completes on the page", LIVE,
                () -> browser.text("#run-state .badge").equals("complete"));
        assertThat(browser.attribute(card("check"), "data-state")).contains("succeeded");
        assertThat(browser.attribute(card("report"), "data-state")).contains("succeeded");
    }

    private static String card(String node) {
        return "article.node-card[data-node='" + node + "']";
    }
}
