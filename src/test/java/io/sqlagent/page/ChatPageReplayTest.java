package io.sqlagent.page;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.sqlagent.TestProfiles;

/** The page on the shipped replay file with no model server: its header names the replay, and it answers. */
@QuarkusTest
@TestProfile(TestProfiles.Replayed.class)
class ChatPageReplayTest {

    @TestHTTPResource("/")
    URI page;

    @Test
    void theHeaderNamesTheReplayAndTheDemoQuestionIsAnswered() throws Exception {
        ChromeDriver browser = Browser.open(1280, 900, Files.createTempDirectory("sqlagent-downloads"));
        try {
            browser.get(page.toString());
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            wait.until(driver -> "true".equals(driver.findElement(By.tagName("body")).getDomAttribute("data-ready")));
            assertEquals("model replay (classpath:replay/chinook.yaml) · source default",
                    browser.findElement(By.id("status")).getText());

            WebElement box = browser.findElement(By.id("question"));
            box.sendKeys("How many tracks are there?");
            box.sendKeys(Keys.ENTER);
            wait.until(driver -> driver.findElement(By.id("transcript")).getText().contains("There are 3,503 tracks"));
            // The header is refreshed after a run (a model server may name itself then); a replay stays named as such.
            wait.until(driver -> !driver.findElements(By.cssSelector("#conversations li")).isEmpty());
            assertEquals("model replay (classpath:replay/chinook.yaml) · source default",
                    browser.findElement(By.id("status")).getText());
        } finally {
            browser.quit();
        }
    }
}
