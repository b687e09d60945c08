package io.sqlagent.page;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;

/**
 * The chart shown with an answer, in headless Chromium against the running service and the scripted model: the kind
 * chosen from the result's shape (or none), its title and axis names, and a tooltip that keeps its styles under the
 * page's Content-Security-Policy, which nothing on the page violates.
 */
@QuarkusTest
@ScriptedModel
class ChatPageChartTest extends ScriptedPageTest {

    static final String GENRES_SQL = "SELECT g.name AS genre, count(*) AS tracks FROM track t JOIN genre g USING (genre_id) "
            + "GROUP BY g.name ORDER BY tracks DESC LIMIT 5";
    static final Map<String, String> TRACKS_BY_GENRE = Map.of("Rock", "1297", "Latin", "579", "Metal", "374",
            "Alternative & Punk", "332", "Jazz", "130");

    @BeforeEach
    void recordViolations() {
        Browser.recordPolicyViolations(browser);
    }

    private WebElement askForResult(String question, String sql) throws JsonProcessingException {
        model.then(toolCalls(call("c1", "run_sql", new ObjectMapper().writeValueAsString(Map.of("sql", sql)))),
                text("Here it is."));
        WebElement run = Browser.askAndWait(browser, question);
        assertThat(run.findElements(By.cssSelector(".step.tool-call.ok"))).as(run.getText()).hasSize(1);
        return run;
    }

    /** The options of the chart the run shows, as ECharts holds them (title, axis names, series kinds). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> chartOptions(WebElement chart) {
        return (Map<String, Object>) browser.executeScript("""
                const option = echarts.getInstanceByDom(arguments[0]).getOption();
                return { title: option.title[0].text, x: option.xAxis[0].name, y: option.yAxis[0].name,
                  kinds: option.series.map((s) => s.type) };
                """, chart);
    }

    @Test
    void categoriesWithCountsAreShownAsABarChartWhoseTooltipKeepsItsStyles() throws Exception {
        WebElement run = askForResult("Which genres have the most tracks?", GENRES_SQL);

        WebElement chart = run.findElement(By.cssSelector(".chart"));
        Browser.waitFor(browser, () -> !chart.findElements(By.tagName("canvas")).isEmpty());
        assertThat(chart.isDisplayed()).isTrue();
        assertThat(run.findElement(By.cssSelector(".table-wrap")).isDisplayed()).as("the table waits behind its button")
                .isFalse();
        assertThat(chart.getDomAttribute("data-kind")).isEqualTo("bar");
        assertThat(chartOptions(chart)).containsEntry("title", "tracks by genre").containsEntry("x", "genre")
                .containsEntry("y", "tracks").containsEntry("kinds", List.of("bar"));
        assertThat(chart.getDomAttribute("aria-label")).contains("tracks by genre", "Rock", "1297");

        // Hovering a bar shows its genre, and the series' name and value apart, styled by the page's style sheet.
        new Actions(browser).moveToElement(chart).pause(100).moveByOffset(4, 4).perform();
        Browser.waitFor(browser, () -> !chart.findElements(By.cssSelector(".chart-tip .tip-row")).isEmpty()
                && chart.findElement(By.cssSelector(".chart-tip")).isDisplayed());
        String genre = chart.findElement(By.cssSelector(".tip-title")).getText();
        assertThat(TRACKS_BY_GENRE).containsKey(genre);
        assertThat(chart.findElement(By.cssSelector(".tip-label")).getText()).isEqualTo("tracks");
        assertThat(chart.findElement(By.cssSelector(".tip-value")).getText()).isEqualTo(TRACKS_BY_GENRE.get(genre));
        @SuppressWarnings("unchecked")
        Map<String, Object> styles = (Map<String, Object>) browser.executeScript("""
                const css = (selector) => getComputedStyle(arguments[0].querySelector(selector));
                return { row: css('.tip-row').display, weight: css('.tip-value').fontWeight,
                  gap: css('.tip-value').marginLeft, marker: css('.tip-marker').backgroundColor,
                  markerWidth: css('.tip-marker').width };
                """, chart);
        assertThat(styles).containsEntry("row", "flex").containsEntry("weight", "600");
        assertThat((String) styles.get("gap")).isNotEqualTo("0px");
        assertThat((String) styles.get("marker")).isNotIn("rgba(0, 0, 0, 0)", "");
        assertThat((String) styles.get("markerWidth")).isNotIn("0px", "auto");

        // Switchable as before: the table, then a pie.
        run.findElements(By.cssSelector(".result-bar button")).stream().filter(b -> b.getText().equals("Table"))
                .findFirst().orElseThrow().click();
        assertThat(run.findElement(By.cssSelector(".table-wrap")).isDisplayed()).isTrue();
        assertThat(chart.isDisplayed()).isFalse();
        new Select(run.findElement(By.cssSelector(".result-bar select"))).selectByValue("pie");
        Browser.waitFor(browser, () -> chart.isDisplayed() && "pie".equals(chart.getDomAttribute("data-kind")));

        assertThat(Browser.policyViolations(browser)).as("Content-Security-Policy violations").isEmpty();
    }

    @Test
    void aTimeSeriesIsShownAsALineChart() throws Exception {
        WebElement run = askForResult("How did revenue go month by month?",
                "SELECT date_trunc('month', invoice_date)::date AS month, sum(total) AS revenue FROM invoice "
                        + "GROUP BY 1 ORDER BY 1 LIMIT 6");

        WebElement chart = run.findElement(By.cssSelector(".chart"));
        Browser.waitFor(browser, () -> !chart.findElements(By.tagName("canvas")).isEmpty());
        assertThat(chart.getDomAttribute("data-kind")).isEqualTo("line");
        assertThat(chartOptions(chart)).containsEntry("title", "revenue by month").containsEntry("x", "month")
                .containsEntry("y", "revenue").containsEntry("kinds", List.of("line"));
        assertThat(Browser.policyViolations(browser)).as("Content-Security-Policy violations").isEmpty();
    }

    @Test
    void aSingleValueOrSeveralTextColumnsAreShownAsATable() throws Exception {
        WebElement single = askForResult("How many tracks?", "SELECT count(*) AS tracks FROM track");
        assertThat(single.findElement(By.cssSelector(".table-wrap")).isDisplayed()).isTrue();
        assertThat(single.findElement(By.cssSelector(".chart")).isDisplayed()).isFalse();
        assertThat(single.findElements(By.cssSelector(".result-bar select"))).as("no chart fits one value").isEmpty();

        WebElement names = askForResult("Who are the first customers?",
                "SELECT first_name, last_name, country FROM customer ORDER BY customer_id LIMIT 5");
        assertThat(names.findElement(By.cssSelector("table.result tbody td")).getText()).isNotEmpty();
        assertThat(names.findElement(By.cssSelector(".chart")).isDisplayed()).isFalse();
        assertThat(names.findElements(By.cssSelector(".result-bar select"))).as("no chart fits text alone").isEmpty();

        // Two text columns and a count: a chart can be asked for, but the table is what is shown.
        WebElement mixed = askForResult("Customers by country and city?",
                "SELECT country, city, count(*) AS customers FROM customer GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 5");
        assertThat(mixed.findElement(By.cssSelector(".table-wrap")).isDisplayed()).isTrue();
        assertThat(mixed.findElement(By.cssSelector(".chart")).isDisplayed()).isFalse();
        assertThat(new Select(mixed.findElement(By.cssSelector(".result-bar select"))).getOptions())
                .extracting(WebElement::getText).contains("bar");
        assertThat(Browser.policyViolations(browser)).as("Content-Security-Policy violations").isEmpty();
    }
}
