package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The console shows resources (docs/resources.md): on the pools page who holds and who waits, on a run page what a node waits for. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResourcesBrowserIT extends IntegrationTest {
    private static final Duration LIVE = Duration.ofSeconds(30);
    private Browser browser;

    @BeforeEach
    void browser() {
        if (browser == null) {
            browser = Browser.start(port);
        }
        browser.windowSize(1280, 900);
    }

    @AfterAll
    void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void thePoolsPageShowsHoldersAndWaitersAndTheRunPageWhatANodeWaitsFor() throws Exception {
        String res = unique("gpu");
        assertThat(api.put("/api/v1/resources/" + res, "{\"capacity\": 1}").status()).isEqualTo(200);
        ReleaseGates.Gate release = gates.gate("release");
        String holder = unique("holder");
        String waiter = unique("waiter");
        for (String g : new String[] {holder, waiter}) {
            api.publish("""
                    [graph]
                    name = "%s"
                    [[node]]
                    name = "train"
                    operator = "shell"
                    leases = ["%s"]
                    [node.params]
                    command = "%s; printf '{}'"
                    """.formatted(g, res, release.awaitCommand()));
        }
        api.start(holder, "p");
        browser.open("pools.html");
        String row = "tr[data-resource='" + res + "']";
        browser.waitUntil("the resource is held", LIVE, () -> browser.present(row)
                && browser.text(row + " .held").equals("1 of 1"));
        api.start(waiter, "p");
        browser.waitUntil("the waiter is listed", LIVE, () -> browser.present(row + " code.waiter")
                && browser.text(row + " code.waiter").contains(waiter + "-p-train-r0"));
        assertThat(browser.text(row + " code.holder")).contains(holder + "-p-train-r0");
        browser.screenshot("dashboard-resources");

        browser.open("run.html?graph=" + waiter + "&partition=p");
        String card = "article.node-card[data-node='train']";
        browser.waitUntil("the node says what it waits for", LIVE, () -> browser.present(card + " .waiting-lease"));
        assertThat(browser.text(card + " .waiting-lease")).contains("waiting for lease `" + res + "`");

        release.open();
        assertThat(awaitSettled(holder, "p").get("state").asString()).isEqualTo("complete");
        assertThat(awaitSettled(waiter, "p").get("state").asString()).isEqualTo("complete");
        browser.open("pools.html");
        browser.waitUntil("nothing held, nobody waits", LIVE, () -> browser.present(row)
                && browser.text(row + " .held").equals("0 of 1") && !browser.present(row + " code.waiter"));
    }
}
