package io.sqlagent.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.sqlagent.it.ServiceProcess;

/**
 * The page on the packaged service with API keys required: it asks the person to sign in, takes
 * a pasted key, and from then on sends it with every request; a wrong key is asked for again.
 */
class ChatPageSignInIT {

    private static final String KEY = "page-test-bootstrap-key-0123456789";

    @TempDir
    Path workDir;

    @Test
    void apiKeyModeAsksForAKeyAndUsesIt() throws Exception {
        Map<String, String> env = Map.of("SQLAGENT_AUTH_MODE", "api-key", "SQLAGENT_AUTH_BOOTSTRAP_KEY", KEY);
        try (ServiceProcess service = ServiceProcess.startShortLived(workDir, env, List.of())) {
            service.awaitStatus("/q/health/ready", 200, Duration.ofSeconds(90));
            ChromeDriver browser = Browser.open(1280, 900, Files.createTempDirectory("sqlagent-downloads"));
            try {
                WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
                browser.get("http://localhost:" + service.httpPort + "/");
                wait.until(driver -> driver.findElement(By.id("signin")).getDomProperty("open").equals("true"));
                assertTrue(browser.findElement(By.id("signin-why")).getText().contains("sign in"));
                assertEquals("true", browser.findElement(By.id("login-link")).getDomProperty("hidden"),
                        "no OIDC login is offered without OIDC");

                browser.findElement(By.id("apikey")).sendKeys("sqa_wrong_key");
                browser.findElement(By.cssSelector("#apikey-form button[type=submit]")).click();
                wait.until(driver -> driver.findElement(By.id("signin")).getDomProperty("open").equals("true"));

                browser.findElement(By.id("apikey")).sendKeys(KEY);
                browser.findElement(By.cssSelector("#apikey-form button[type=submit]")).click();
                wait.until(driver -> driver.findElement(By.id("status")).getText().contains("source default"));
                assertEquals("false", browser.findElement(By.id("signin")).getDomProperty("open"));
                assertEquals(KEY, browser.executeScript("return sessionStorage.getItem('sqlagent.key')"));
            } finally {
                browser.quit();
            }
        }
    }
}
