package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Outside local mode (the properties of {@link SecurityIT}, so the context is shared): the dashboard asks for
 * the operator token once per tab, refuses a wrong one, sends the right one with every action, and offers
 * read-only viewing, asking again when an action or the definition source needs the token.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.embedded=true", "swale.local-profile=false", "swale.security.token=s3cret-token",
        "swale.examples=", "spring.profiles.active=prod"})
class DashboardTokenBrowserIT {
    static final String TOKEN = "s3cret-token";
    private static final String[] BEARER = {"Authorization", "Bearer " + TOKEN};
    private static final Duration LIVE = Duration.ofSeconds(30);

    @LocalServerPort
    int port;

    @Test
    void theTokenIsAskedOnceAWrongOneIsRefusedAndEveryActionCarriesIt() {
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("tokened");
        assertThat(api.postWith("/api/v1/definitions", Graphs.chain(g, 1), BEARER).status()).isEqualTo(201);
        assertThat(api.get("/api/v1/dashboard/session").body().toString())
                .isEqualTo("{\"tokenRequired\":true,\"readsNeedToken\":false,\"authenticated\":false}");

        try (Browser browser = Browser.start(port)) {
            browser.open("graph.html?graph=" + g);
            browser.waitUntil("the token is asked for", LIVE, () -> browser.present("#token-dialog[open]"));
            assertThat(browser.present("#token-dialog button.read-only")).isTrue();
            browser.screenshot("dashboard-token");

            type(browser, "wrong-token");
            browser.click("#token-dialog button.sign-in");
            browser.waitUntil("a wrong token is refused", LIVE, () -> browser.text("#token-problem").contains("refused"));
            assertThat(browser.present("#token-dialog[open]")).isTrue();
            type(browser, TOKEN);
            browser.click("#token-dialog button.sign-in");
            browser.waitUntil("the dialog closes", LIVE, () -> !browser.present("#token-dialog[open]"));
            assertThat(browser.attribute("#auth", "data-state")).contains("operator");
            assertThat(browser.script("return sessionStorage.getItem('swale.token')")).isEqualTo(TOKEN);

            // An action sends the token: the run starts.
            browser.waitUntil("the start form is ready", LIVE, () -> browser.present("#start-partition"));
            browser.script("document.getElementById('start-partition').value = 'p1'");
            browser.click("#start-run");
            browser.click("#confirm-dialog[open] button.confirm");
            browser.waitUntil("the run is started", LIVE, () -> browser.text("#outcome").contains("Started " + g + " / p1"));
            assertThat(api.get("/api/v1/graphs/" + g + "/runs/p1").status()).isEqualTo(200);
            // The live stream is read with the token too.
            browser.waitUntil("the page is live", LIVE, () -> browser.attribute("#live", "data-state").orElse("").equals("on"));

            // Asked once: another page of the same tab does not ask again.
            browser.open("pools.html");
            browser.waitUntil("the pools page is drawn", LIVE, () -> browser.present("article.pool-card"));
            assertThat(browser.attribute("#auth", "data-state")).contains("operator");
            assertThat(browser.present("#token-dialog[open]")).isFalse();
        }
    }

    @Test
    void readOnlyViewingWorksWithoutTheTokenAndAnActionAsksForIt() {
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("readonly");
        assertThat(api.postWith("/api/v1/definitions", Graphs.chain(g, 1), BEARER).status()).isEqualTo(201);

        try (Browser browser = Browser.start(port)) {
            browser.open("graph.html?graph=" + g);
            browser.waitUntil("the token is asked for", LIVE, () -> browser.present("#token-dialog[open]"));
            browser.click("#token-dialog button.read-only");
            browser.waitUntil("the graph is shown read-only", LIVE, () -> browser.present("#dag g.node[data-node='n0']"));
            assertThat(browser.attribute("#auth", "data-state")).contains("read-only");

            // The definition source needs the token even read-only: the page asks, and says why when declined.
            browser.open("definition.html?graph=" + g);
            browser.waitUntil("the source asks for the token", LIVE, () -> browser.present("#token-dialog[open]"));
            browser.click("#token-dialog button.read-only");
            browser.waitUntil("the page says the source needs the token", LIVE,
                    () -> browser.text("#adoption").contains("needs the operator token"));
            assertThat(browser.text("#source")).doesNotContain("noop");
            // signed in from the top right, as the page says: the source is read then, with no reload
            browser.script("window.sameDocument = true");
            browser.click("#auth");
            browser.waitUntil("the token is asked for", LIVE, () -> browser.present("#token-dialog[open]"));
            type(browser, TOKEN);
            browser.click("#token-dialog button.sign-in");
            browser.waitUntil("the source is shown", LIVE, () -> browser.text("#source").contains("noop"));
            assertThat(browser.script("return window.sameDocument === true")).isEqualTo(true);
            browser.click("#auth"); // signs out again, for the read-only steps below
            browser.open("graph.html?graph=" + g);

            // The action is refused without the token (401): the dialog comes back, and the action goes through after it.
            browser.waitUntil("the start form is ready", LIVE, () -> browser.present("#start-partition"));
            browser.script("document.getElementById('start-partition').value = 'p1'");
            browser.click("#start-run");
            browser.click("#confirm-dialog[open] button.confirm");
            browser.waitUntil("the token is asked for again", LIVE, () -> browser.present("#token-dialog[open]"));
            assertThat(browser.text("#token-dialog")).contains("needs the operator token");
            type(browser, TOKEN);
            browser.click("#token-dialog button.sign-in");
            browser.waitUntil("the run is started", LIVE, () -> browser.text("#outcome").contains("Started " + g + " / p1"));
            assertThat(api.get("/api/v1/graphs/" + g + "/runs/p1").status()).isEqualTo(200);
        }
    }

    static void type(Browser browser, String text) {
        WebElement input = browser.driver().findElement(By.cssSelector("#token-input"));
        input.clear();
        input.sendKeys(text);
    }
}
