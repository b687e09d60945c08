package io.sqlagent.page;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.sqlagent.TestProfiles;

/**
 * The page on a service with no model ({@link TestProfiles.Restricted}, which has no scripted model): it says what to
 * set instead of failing; and the page's own security: a Content-Security-Policy without inline scripts or remote
 * origins, and no inline script in the page.
 */
@QuarkusTest
@TestProfile(TestProfiles.Restricted.class)
class ChatPageWithoutModelTest {

    @TestHTTPResource("/")
    URI page;

    @Test
    void withoutAModelThePageSaysWhatToSet() throws Exception {
        ChromeDriver browser = Browser.open(1280, 900, Files.createTempDirectory("sqlagent-downloads"));
        try {
            browser.get(page.toString());
            new WebDriverWait(browser, Duration.ofSeconds(30))
                    .until(driver -> "true".equals(driver.findElement(By.tagName("body")).getDomAttribute("data-ready")));
            String notice = browser.findElement(By.id("notice")).getText();
            assertTrue(notice.contains("No chat model is configured") && notice.contains("QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL"),
                    notice);
            assertTrue(browser.findElement(By.id("status")).getText().startsWith("no model"));
        } finally {
            browser.quit();
        }
    }

    @Test
    void thePageForbidsInlineScriptsAndOtherOrigins() {
        for (String path : new String[] { "/", "/index.html", "/app/app.js" }) {
            // The page's policy; the service-wide frame-ancestors policy may come as a second header (both apply).
            String policies = String.join(" | ",
                    given().get(path).then().statusCode(200).extract().headers().getValues("Content-Security-Policy"));
            assertTrue(policies.contains("default-src 'self'; script-src 'self'; style-src 'self'"), path + ": " + policies);
            assertFalse(policies.contains("unsafe-inline") || policies.contains("unsafe-eval") || policies.contains("http"),
                    path + ": " + policies);
        }
        String html = given().get("/").then().statusCode(200).extract().asString();
        for (String tag : html.split("<script").length > 1 ? html.substring(html.indexOf("<script")).split("<script")
                : new String[0]) {
            if (!tag.isEmpty()) {
                assertTrue(tag.substring(0, tag.indexOf('>')).contains(" src=") && tag.contains("></script>"),
                        "no inline script: <script" + tag.substring(0, Math.min(tag.length(), 80)));
            }
        }
        assertFalse(html.contains("style=\""), "no inline style");
        assertFalse(html.contains("onclick") || html.contains("onload"), "no inline handlers");
        for (String library : new String[] { "/webjars/marked/15.0.7/marked.min.js",
                "/webjars/dompurify/3.2.4/dist/purify.min.js",
                "/webjars/echarts/5.3.1/dist/echarts.min.js", "/webjars/highlightjs/11.10.0/highlight.min.js" }) {
            given().get(library).then().statusCode(200);
        }
    }
}
