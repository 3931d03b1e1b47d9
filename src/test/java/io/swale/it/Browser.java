package io.swale.it;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.springframework.util.FileSystemUtils;

/**
 * Debian's headless Chromium driven by Selenium, with a fresh profile per browser. Tests that use it are
 * skipped (a JUnit assumption) where Chromium or its driver is not installed.
 */
final class Browser implements AutoCloseable {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final ChromeDriver driver;
    private final Path profile;
    private final String base;

    private Browser(ChromeDriver driver, Path profile, String base) {
        this.driver = driver;
        this.profile = profile;
        this.base = base;
    }

    /** Starts Chromium at 1280 × 900, or skips the calling test where Chromium is absent. */
    static Browser start(int port) {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)");
        try {
            Path profile = Files.createTempDirectory("swale-chromium-");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM.toFile());
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                    "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=1280,900", "--lang=en-US");
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
            return new Browser(driver, profile, "http://127.0.0.1:" + port + "/");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void open(String path) {
        driver.get(base + path);
    }

    ChromeDriver driver() {
        return driver;
    }

    Optional<WebElement> find(String css) {
        List<WebElement> found = driver.findElements(By.cssSelector(css));
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    boolean present(String css) {
        return !all(css).isEmpty();
    }

    /** The attribute of the first match, or empty; read in the page, so a redraw cannot make it stale. */
    Optional<String> attribute(String css, String name) {
        return Optional.ofNullable((String) script(
                "const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) : null;", css, name));
    }

    /** The rendered text of the first match, or "" when there is none. */
    String text(String css) {
        Object t = script("const e = document.querySelector(arguments[0]); return e ? (e.innerText ?? e.textContent).trim() : '';", css);
        return t == null ? "" : (String) t;
    }

    /** The attribute of every match, in document order. */
    @SuppressWarnings("unchecked")
    List<String> attributes(String css, String name) {
        return (List<String>) script(
                "return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute(arguments[1]));", css, name);
    }

    /** Waits until the condition holds; the page redraws on live events, so a replaced element is retried. */
    void waitUntil(String what, Duration atMost, Callable<Boolean> condition) {
        try {
            await(what).atMost(atMost).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptionsMatching(e -> e instanceof StaleElementReferenceException
                            || e instanceof NoSuchElementException)
                    .until(condition);
        } catch (ConditionTimeoutException e) {
            Path shot = screenshot("failed-" + what.replaceAll("[^A-Za-z0-9]+", "-"));
            throw new AssertionError("waited in vain until " + what + " (screenshot " + shot + "); the page reads:\n"
                    + text("body"), e);
        }
    }

    /** Clicks the first match once it exists, retrying when a redraw replaced it between find and click. */
    void click(String css) {
        waitUntil("click " + css, Duration.ofSeconds(20), () -> {
            WebElement e = driver.findElement(By.cssSelector(css));
            if (!e.isDisplayed() || !e.isEnabled()) {
                return false;
            }
            e.click();
            return true;
        });
    }

    Object script(String js, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(js, args);
    }

    void windowSize(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    /** Follows prefers-color-scheme: dark (true) or light (false). */
    void darkTheme(boolean dark) {
        driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features",
                List.of(Map.of("name", "prefers-color-scheme", "value", dark ? "dark" : "light"))));
    }

    /** Saves the whole page (the window grown to the page's height) as target/screenshots/NAME.png. */
    Path screenshot(String name) {
        Dimension before = driver.manage().window().getSize();
        try {
            long height = ((Number) script("return Math.ceil(document.documentElement.scrollHeight)")).longValue();
            long chrome = ((Number) script("return window.outerHeight - window.innerHeight")).longValue();
            windowSize(before.getWidth(), (int) Math.min(4000, Math.max(before.getHeight(), height + chrome)));
            Files.createDirectories(SCREENSHOTS);
            File shot = driver.getScreenshotAs(OutputType.FILE);
            Path target = SCREENSHOTS.resolve(name + ".png");
            Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            driver.manage().window().setSize(before);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            FileSystemUtils.deleteRecursively(profile.toFile());
        }
    }
}
