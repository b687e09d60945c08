package io.sqlagent.page;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.openqa.selenium.chrome.ChromeDriver;

import io.quarkus.test.common.http.TestHTTPResource;
import io.sqlagent.agent.ScriptedModelExtension;
import io.sqlagent.agent.ScriptedOpenAiServer;

/**
 * What the page tests against the scripted model share: one headless Chromium per class (downloading into
 * {@link #downloads}), the scripted server reset and the page loaded afresh before each test. Subclasses are
 * {@code @QuarkusTest @ScriptedModel}, so they share one application.
 */
abstract class ScriptedPageTest {

    static ChromeDriver browser;
    static Path downloads;

    @TestHTTPResource("/")
    URI page;

    final ScriptedOpenAiServer model = ScriptedModelExtension.server();

    @BeforeAll
    static void openBrowser() throws Exception {
        downloads = Files.createTempDirectory("sqlagent-downloads");
        browser = Browser.open(1280, 900, downloads);
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.quit();
            browser = null;
        }
    }

    @BeforeEach
    void loadPage() {
        Browser.load(browser, page.toString());
    }
}
