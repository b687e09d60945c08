package io.sqlagent.page;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium from the Debian packages ({@code chromium}, {@code chromium-driver}), driven by
 * Selenium through that chromedriver: nothing is downloaded at run time. Without the packages the
 * tests are skipped, unless {@code CI} is set: then they fail (.ci/run installs them).
 */
public final class Browser {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private Browser() {
    }

    /** A new headless browser of the given window size that downloads into {@code downloads}. */
    public static ChromeDriver open(int width, int height, Path downloads) {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present) {
            if (System.getenv("CI") != null) {
                throw new AssertionError("chromium and chromedriver are needed for the page tests under CI "
                        + "(apt-get install chromium chromium-driver; .ci/run does it)");
            }
            Assumptions.abort("chromium/chromedriver not installed: apt-get install chromium chromium-driver");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=" + width + "," + height, "--lang=en-US");
        options.setExperimentalOption("prefs", Map.of("download.default_directory", downloads.toString(),
                "download.prompt_for_download", false));
        // The console is read by the tests (a Content-Security-Policy violation is reported there).
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** Opens the page at {@code url} and waits until it has read what the service offers. */
    public static void load(ChromeDriver driver, String url) {
        driver.get(url);
        waitFor(driver, () -> "true".equals(driver.findElement(By.tagName("body")).getDomAttribute("data-ready")));
    }

    /** Waits up to 30 s for {@code condition}. */
    public static void waitFor(ChromeDriver driver, BooleanSupplier condition) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(d -> condition.getAsBoolean());
    }

    /** Asks {@code question} as a person does (typed, Enter) and returns the run's element once it has finished. */
    public static WebElement askAndWait(ChromeDriver driver, String question) {
        int before = driver.findElements(By.cssSelector("#transcript .run")).size();
        WebElement box = driver.findElement(By.id("question"));
        box.sendKeys(question);
        box.sendKeys(Keys.ENTER);
        waitFor(driver, () -> {
            List<WebElement> runs = driver.findElements(By.cssSelector("#transcript .run"));
            return runs.size() > before && runs.get(runs.size() - 1).findElements(By.cssSelector(".working")).isEmpty();
        });
        List<WebElement> runs = driver.findElements(By.cssSelector("#transcript .run"));
        return runs.get(runs.size() - 1);
    }

    /** Makes the page see {@code prefers-color-scheme: dark} (or light). */
    public static void colorScheme(ChromeDriver driver, String scheme) {
        driver.executeCdpCommand("Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
    }

    /**
     * Wraps the page's {@code fetch}: the stream of {@code POST /api/chat} fails with a network error once its first
     * {@code content} event has arrived, while the real connection is read to its end (the run goes on), and every
     * resume request's {@code Last-Event-ID} is recorded in {@code window.resumedFrom}.
     */
    public static void dropChatStreamAfterFirstContent(ChromeDriver driver) {
        driver.executeScript("""
                const original = window.fetch;
                window.resumedFrom = [];
                window.fetch = async (input, init = {}) => {
                  const url = typeof input === 'string' ? input : input.url;
                  if (url.includes('/api/chat/runs/')) window.resumedFrom.push(init.headers['Last-Event-ID']);
                  const response = await original(input, init);
                  if (url !== '/api/chat') return response;
                  const reader = response.body.getReader();
                  let seen = '';
                  const body = new ReadableStream({
                    async pull(controller) {
                      const { value, done } = await reader.read();
                      if (done) { controller.close(); return; }
                      controller.enqueue(value);
                      seen += new TextDecoder().decode(value);
                      if (/event: ?content/.test(seen)) {
                        controller.error(new TypeError('network error'));
                        (async () => { while (!(await reader.read()).done) { /* the run goes on */ } })();
                      }
                    },
                  });
                  return new Response(body, { status: response.status, headers: response.headers });
                };
                """);
    }

    /** Starts recording the page's {@code securitypolicyviolation} events into {@code window.violations}. */
    public static void recordPolicyViolations(ChromeDriver driver) {
        driver.executeScript(
                """
                        window.violations = [];
                        document.addEventListener('securitypolicyviolation', (e) =>
                          window.violations.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sample} (${e.sourceFile}:${e.lineNumber})`));
                        """);
    }

    /**
     * The Content-Security-Policy violations seen: those recorded since {@link #recordPolicyViolations} and those the
     * console reported (which include the ones before it, while the page loaded). Reading the console empties it.
     */
    @SuppressWarnings("unchecked")
    public static List<String> policyViolations(ChromeDriver driver) {
        List<String> seen = new ArrayList<>((List<String>) driver.executeScript("return window.violations || []"));
        for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
            if (entry.getMessage().contains("Content Security Policy")) {
                seen.add(entry.getMessage());
            }
        }
        return seen;
    }

    /** Saves a screenshot of the page into docs/images (shown in the README). */
    public static void screenshot(ChromeDriver driver, String name) throws Exception {
        Path images = Path.of("docs", "images");
        Files.createDirectories(images);
        Files.write(images.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
    }
}
