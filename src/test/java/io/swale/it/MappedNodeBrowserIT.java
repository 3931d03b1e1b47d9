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
 * A mapped node on the run page in real headless Chromium: items done of their total ({@code 7/10}) on the node
 * card and in the DAG while three items wait, each item's state, and the rerun of one failed item from the page.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MappedNodeBrowserIT extends IntegrationTest {
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
    void runPageShowsItemsDoneOfTotalAndReRunsOneFailedItem(@TempDir Path dir) throws Exception {
        String g = unique("mapped_page");
        ReleaseGates.Gate release = gates.gate("release");
        Path fixed = dir.resolve("fixed");
        api.publish("""
                [graph]
                name = "%1$s"
                [[node]]
                name = "list"
                operator = "shell"
                [node.params]
                command = "printf '{\\"days\\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}'"
                [[node]]
                name = "each"
                after = ["list"]
                operator = "shell"
                map = "{{ upstream.list.days }}"
                [node.params]
                command = "test {{ map.index }} -lt 7 || %2$s; test {{ map.index }} != 2 || test -f '%3$s' || { echo 'day 3: no file' >&2; exit 3; }; printf '{\\"day\\": %%s}' {{ item }}"
                [[node]]
                name = "total"
                after = ["each"]
                operator = "noop"
                """.formatted(g, release.awaitCommand(), fixed));
        api.start(g, "p");
        browser.open("run.html?graph=" + g + "&partition=p");
        browser.waitUntil("the card shows 7/10 while three items wait", LIVE,
                () -> browser.text(card("each") + " .items").equals("7/10"));
        assertThat(browser.text("#dag g.node[data-node='each'] text.items")).isEqualTo("7/10");
        assertThat(browser.attribute(card("each") + " li[data-item='2']", "data-state")).contains("failed");
        // the seventh item can end a moment before the last waiting one is claimed from the pool
        browser.waitUntil("a waiting item shows running", LIVE,
                () -> browser.attribute(card("each") + " li[data-item='8']", "data-state").orElse("").equals("running"));
        browser.screenshot("dashboard-mapped-running");

        release.open();
        browser.waitUntil("the node fails once every item is done", LIVE,
                () -> browser.attribute(card("each"), "data-state").orElse("").equals("failed"));
        assertThat(browser.text(card("each") + " .items")).isEqualTo("10/10");
        assertThat(browser.text(card("each") + " pre.error")).contains("1 of 10 items failed").contains("day 3");

        Files.writeString(fixed, "ok");
        browser.click(card("each") + " li[data-item='2'] button.rerun-item");
        assertThat(browser.text("#confirm-dialog[open]")).contains("Rerun each[2]?");
        browser.click("#confirm-dialog[open] button.confirm");
        browser.waitUntil("the item's rerun is submitted", LIVE,
                () -> browser.text("#outcome").contains(g + "-p-each[2]-r1"));
        browser.waitUntil("the run completes on the page", LIVE,
                () -> browser.text("#run-state .badge").equals("complete"));
        assertThat(browser.attribute(card("total"), "data-state")).contains("succeeded");
        assertThat(browser.text(card("each") + " details.output pre")).contains("\"day\": 3");
        browser.screenshot("dashboard-mapped-complete");
    }

    private static String card(String node) {
        return "article.node-card[data-node='" + node + "']";
    }
}
