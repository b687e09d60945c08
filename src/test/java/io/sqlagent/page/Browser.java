package io.sqlagent.page;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

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
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** Makes the page see {@code prefers-color-scheme: dark} (or light). */
    public static void colorScheme(ChromeDriver driver, String scheme) {
        driver.executeCdpCommand("Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
    }

    /** Saves a screenshot of the page into docs/images (shown in the README). */
    public static void screenshot(ChromeDriver driver, String name) throws Exception {
        Path images = Path.of("docs", "images");
        Files.createDirectories(images);
        Files.write(images.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
    }
}
