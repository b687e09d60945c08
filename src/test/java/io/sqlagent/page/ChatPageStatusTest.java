package io.sqlagent.page;

import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;

/**
 * The page's header and conversation list in headless Chromium against the scripted model server, which is asked for
 * {@code scripted-model} and answers as {@code scripted}: the header names the model that answers and where, and
 * each conversation says when it was last used.
 */
@QuarkusTest
@ScriptedModel
class ChatPageStatusTest extends ScriptedPageTest {

    @Test
    void theHeaderNamesTheModelAsItsServerAnswersAndWhere() {
        String server = URI.create(model.baseUrl()).getAuthority();
        WebElement status = browser.findElement(By.id("status"));
        // Before any answer (this class may run first) the model asked for, else the one that answered; the server either way.
        assertThat(status.getText()).isIn("model scripted-model at " + server + " · source default",
                "model scripted at " + server + " · source default");

        model.then(text("There are 3503 tracks."));
        Browser.askAndWait(browser, "How many tracks are there?");

        Browser.waitFor(browser, () -> status.getText().equals("model scripted at " + server + " · source default"));
        assertThat(status.getDomAttribute("title")).contains("named itself scripted", "asks for scripted-model");
        browser.navigate().refresh();
        Browser.waitFor(browser, () -> "true".equals(browser.findElement(By.tagName("body")).getDomAttribute("data-ready")));
        assertThat(browser.findElement(By.id("status")).getText())
                .isEqualTo("model scripted at " + server + " · source default");
    }

    @Test
    void eachConversationInTheListSaysWhenItWasLastUsed() {
        model.then(text("And 275 artists."));
        Browser.askAndWait(browser, "How many artists are there?");
        Browser.waitFor(browser, () -> browser.findElements(By.cssSelector("#conversations li")).stream()
                .anyMatch(item -> item.getText().startsWith("How many artists are there?")));

        WebElement item = browser.findElements(By.cssSelector("#conversations li")).get(0);
        assertThat(item.findElement(By.tagName("button")).getText()).isEqualTo("How many artists are there?");
        WebElement time = item.findElement(By.tagName("time"));
        assertThat(time.getText()).isEqualTo("just now");
        assertThat(time.isDisplayed()).isTrue();
        Instant when = Instant.parse(time.getDomAttribute("datetime"));
        assertThat(Duration.between(when, Instant.now()).abs()).isLessThan(Duration.ofMinutes(2));
        // The full date in the title, in the browser's language (en-US): weekday, month, day, year and time.
        assertThat(time.getDomAttribute("title"))
                .matches("[A-Z][a-z]+day, [A-Z][a-z]+ \\d{1,2}, \\d{4} at \\d{1,2}:\\d{2}:\\d{2}.*");

        // An older conversation reads in words, and past a week as a date.
        @SuppressWarnings("unchecked")
        java.util.List<String> older = (java.util.List<String>) browser.executeScript("""
                return import('/app/time.js').then(({ sinceNow }) => {
                  const now = Date.parse('2026-03-10T12:00:00Z');
                  return [sinceNow('2026-03-10T11:55:00Z', now), sinceNow('2026-03-10T09:00:00Z', now),
                    sinceNow('2026-03-09T10:00:00Z', now), sinceNow('2026-02-01T10:00:00Z', now)];
                });
                """);
        assertThat(older).containsExactly("5 minutes ago", "3 hours ago", "yesterday", "Feb 1, 2026");
    }
}
