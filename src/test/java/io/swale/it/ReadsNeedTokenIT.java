package io.swale.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code swale.security.anonymous-reads=false}: every read of the admin API needs the token too, the session
 * probe and the static dashboard stay open, and the dashboard shows nothing until the token is given (no
 * read-only choice), then reads and streams with it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "swale.embedded=true", "swale.local-profile=false", "swale.security.token=s3cret-token",
        "swale.security.anonymous-reads=false", "swale.examples=", "spring.profiles.active=prod"})
class ReadsNeedTokenIT {
    private static final String[] BEARER = {"Authorization", "Bearer " + DashboardTokenBrowserIT.TOKEN};
    private static final String[] WRONG = {"Authorization", "Bearer wrong"};
    private static final Duration LIVE = Duration.ofSeconds(30);

    @LocalServerPort
    int port;

    @Test
    void readsNeedTheTokenAndTheDashboardAsksForItBeforeShowingAnything() {
        SwaleClient api = new SwaleClient(port);
        String g = IntegrationTest.unique("closed");
        assertThat(api.postWith("/api/v1/definitions", Graphs.chain(g, 1), BEARER).status()).isEqualTo(201);

        assertThat(api.get("/api/v1/graphs").status()).isEqualTo(401);
        assertThat(api.getWith("/api/v1/graphs", WRONG).status()).isEqualTo(401);
        assertThat(api.getWith("/api/v1/graphs", BEARER).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/dashboard/graphs").status()).isEqualTo(401);
        assertThat(api.get("/api/v1/dashboard/events").status()).isEqualTo(401);
        assertThat(api.get("/api/v1/dashboard/session").body().toString())
                .isEqualTo("{\"tokenRequired\":true,\"readsNeedToken\":true,\"authenticated\":false}");
        assertThat(api.getWith("/api/v1/dashboard/session", BEARER).body().get("authenticated").asBoolean()).isTrue();
        assertThat(api.get("/").status()).isEqualTo(200);
        assertThat(api.get("/assets/swale.js").status()).isEqualTo(200);
        assertThat(api.get("/assets/auth.js").status()).isEqualTo(200);
        assertThat(api.get("/actuator/health").status()).isEqualTo(200);

        try (Browser browser = Browser.start(port)) {
            browser.open("");
            browser.waitUntil("the token is asked for", LIVE, () -> browser.present("#token-dialog[open]"));
            assertThat(browser.present("#token-dialog button.read-only")).as("no read-only choice").isFalse();
            browser.driver().findElement(org.openqa.selenium.By.cssSelector("#token-input")).sendKeys(Keys.ESCAPE);
            browser.waitUntil("Escape does not skip the token", LIVE, () -> browser.present("#token-dialog[open]"));
            assertThat(browser.present("article.graph-card")).isFalse();

            DashboardTokenBrowserIT.type(browser, DashboardTokenBrowserIT.TOKEN);
            browser.click("#token-dialog button.sign-in");
            browser.waitUntil("the graphs are shown", LIVE, () -> browser.present("article.graph-card[data-graph='" + g + "']"));
            browser.waitUntil("the live stream is read with the token", LIVE,
                    () -> browser.attribute("#live", "data-state").orElse("").equals("on"));

            // The stream delivers: a run started elsewhere shows on the card without reload.
            browser.script("window.sameDocument = true");
            assertThat(api.postWith("/api/v1/graphs/" + g + "/runs", "{\"partitions\":[\"p\"]}", BEARER).status()).isEqualTo(200);
            browser.waitUntil("the new run shows", LIVE, () -> browser
                    .present("article[data-graph='" + g + "'] .recent a[data-partition='p']"));
            assertThat(browser.script("return window.sameDocument === true")).isEqualTo(true);
        }
    }
}
