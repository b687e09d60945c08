package io.sqlagent.page;

import static io.sqlagent.agent.ScriptedOpenAiServer.call;
import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static io.sqlagent.agent.ScriptedOpenAiServer.toolCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.Toolset;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The chat page in a real headless Chromium against the running service and the scripted
 * OpenAI-compatible model: what a person sees is read from the DOM.
 */
@QuarkusTest
@ScriptedModel
class ChatPageTest extends ScriptedPageTest {

    static final String GENRES_SQL = "SELECT g.name AS genre, count(*) AS tracks FROM track t JOIN genre g USING (genre_id) "
            + "GROUP BY g.name ORDER BY tracks DESC LIMIT 5";
    static final String ENDLESS_SQL = "SELECT count(*) AS n FROM track a CROSS JOIN track b CROSS JOIN track c";

    @Inject
    Pool store;

    @Inject
    ToolRegistry registry;

    /** Light theme and a desktop window again after the phone-width test. */
    @BeforeEach
    void desktop() {
        Browser.colorScheme(browser, "light");
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(1280, 900));
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) {
        Browser.waitFor(browser, condition);
    }

    private static void ask(String question) {
        WebElement box = browser.findElement(By.id("question"));
        box.sendKeys(question);
        box.sendKeys(Keys.ENTER);
    }

    private static List<WebElement> runs() {
        return browser.findElements(By.cssSelector("#transcript .run"));
    }

    private static WebElement lastRun() {
        List<WebElement> runs = runs();
        return runs.get(runs.size() - 1);
    }

    private static boolean finished(WebElement run) {
        return run.findElements(By.cssSelector(".working")).isEmpty();
    }

    @Test
    void aQuestionStreamsWithItsStepsATableAndAChart() throws Exception {
        model.then(toolCalls("Let me count the tracks per genre.", call("c1", "run_sql", "{\"sql\":\"" + GENRES_SQL + "\"}")),
                text("**Rock** leads ", "with 1297 tracks."));

        ask("Which genres have the most tracks?");
        waitFor(() -> !runs().isEmpty() && finished(lastRun()));
        WebElement run = lastRun();

        assertEquals("Which genres have the most tracks?", run.findElement(By.cssSelector(".question")).getText());
        // Steps in the order they happened: the thinking, then the tool call with its result, then the answer.
        List<String> order = run.findElements(By.cssSelector(".steps > .step, .result-view, .answer")).stream()
                .map(e -> e.getDomAttribute("class")).toList();
        assertEquals(List.of("step thinking", "step tool-call ok", "result-view", "answer"), order);
        WebElement thinking = run.findElement(By.cssSelector(".thinking"));
        thinking.findElement(By.tagName("summary")).click();
        assertEquals("Let me count the tracks per genre.", thinking.findElement(By.cssSelector(".thinking-text")).getText());
        assertEquals("polite", browser.findElement(By.id("transcript")).getDomAttribute("aria-live"),
                "a screen reader hears it");
        List<WebElement> steps = run.findElements(By.cssSelector(".step.tool-call"));
        assertEquals(1, steps.size());
        assertEquals("run_sql", steps.get(0).findElement(By.cssSelector(".tool-name")).getText());
        assertTrue(steps.get(0).getText().contains("5 rows"), steps.get(0).getText());
        assertEquals("Rock leads with 1297 tracks.", run.findElement(By.cssSelector(".answer")).getText());
        assertEquals("Rock", run.findElement(By.cssSelector(".answer strong")).getText());
        assertTrue(run.findElement(By.cssSelector(".meta")).getText().contains("2 model calls"));

        // Genres and their counts suit a bar chart, shown first; the table is a click away.
        WebElement chart = run.findElement(By.cssSelector(".chart"));
        waitFor(() -> !chart.findElements(By.tagName("canvas")).isEmpty());
        assertEquals("bar", chart.getDomAttribute("data-kind"));
        run.findElements(By.cssSelector(".result-bar button")).stream().filter(b -> b.getText().equals("Table"))
                .findFirst().orElseThrow().click();
        List<WebElement> headers = run.findElements(By.cssSelector("table.result th"));
        assertEquals(List.of("genre", "tracks"), headers.stream().map(WebElement::getText).toList());
        List<WebElement> cells = run.findElements(By.cssSelector("table.result tbody tr:first-child td"));
        assertEquals(List.of("Rock", "1297"), cells.stream().map(WebElement::getText).toList());
        assertEquals("num", cells.get(1).getDomAttribute("class"));
        Browser.screenshot(browser, "page-table");

        // Sorting by tracks ascending puts the smallest first.
        headers.get(1).findElement(By.tagName("button")).click();
        assertEquals("130", run.findElement(By.cssSelector("table.result tbody tr:first-child td.num")).getText());
        assertEquals("ascending", headers.get(1).getDomAttribute("aria-sort"));

        // The SQL is shown, highlighted, one clause a line.
        steps.get(0).findElement(By.tagName("summary")).click();
        WebElement sql = steps.get(0).findElement(By.cssSelector(".sql code"));
        assertTrue(sql.getText().startsWith("SELECT g.name AS genre, count(*) AS tracks\nFROM track t"), sql.getText());
        assertFalse(sql.findElements(By.cssSelector(".hljs-keyword")).isEmpty(), "highlighted");
        Browser.screenshot(browser, "page-tool-steps");

        new Select(run.findElement(By.cssSelector(".result-bar select"))).selectByValue("bar");
        waitFor(() -> chart.isDisplayed() && !chart.findElements(By.tagName("canvas")).isEmpty());
        String description = chart.getDomAttribute("aria-label");
        assertTrue(description.contains("Rock") && description.contains("1297") && description.contains("Jazz")
                && description.contains("130"), description);
        assertEquals("bar", chart.getDomAttribute("data-kind"));
        Browser.screenshot(browser, "page-chart");
    }

    @Test
    void aCsvDownloadHoldsTheResult() throws Exception {
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT 'a,b' AS name, 1.50 AS price, NULL AS missing\"}")),
                text("Done."));
        ask("Download it");
        waitFor(() -> !runs().isEmpty() && finished(lastRun()));
        assertEquals("NULL", lastRun().findElement(By.cssSelector("table.result .null")).getText());

        assertEquals("name,price,missing\r\n\"a,b\",1.50,\r\n", downloadCsv());
    }

    @Test
    void aCsvDownloadNeutralisesCellsASpreadsheetWouldRunAsFormulas() throws Exception {
        String sql = "SELECT '=HYPERLINK(\"http://evil.example\",\"x\")' AS \"=link\", '@SUM(1+1)' AS at, '+1+cmd' AS plus,"
                + " '-2+3' AS negative, E'\\tx' AS tab, E'\\r=1' AS cr, -1.5 AS n, '+7' AS signed, 'a=b' AS plain";
        model.then(toolCalls(call("c1", "run_sql", new ObjectMapper().writeValueAsString(Map.of("sql", sql)))),
                text("Done."));
        ask("Export the formulas");
        waitFor(() -> !runs().isEmpty() && finished(lastRun()));

        assertEquals("\"'=link\",at,plus,negative,tab,cr,n,signed,plain\r\n"
                + "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\",\"'@SUM(1+1)\",\"'+1+cmd\",\"'-2+3\","
                + "\"'\tx\",\"'\r=1\",-1.5,+7,a=b\r\n", downloadCsv());
    }

    /** Clicks the last run's CSV button and reads the file the browser saved. */
    private static String downloadCsv() throws Exception {
        Path csv = downloads.resolve("run_sql-result.csv");
        Files.deleteIfExists(csv);
        lastRun().findElements(By.cssSelector(".result-bar button")).stream().filter(b -> b.getText().equals("CSV"))
                .findFirst().orElseThrow(() -> new AssertionError("no CSV button in the run: " + lastRun().getText()))
                .click();
        waitFor(() -> Files.exists(csv));
        return Files.readString(csv);
    }

    @Test
    void hostileValuesAreShownAsTextAndRunNothing() {
        String evil = "<img src=x onerror=\\\"window.__pwned=1\\\">";
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT '" + evil + "' AS evil\"}")),
                text("Look: <img src=x onerror=\"window.__pwned=2\"> and [click me](javascript:window.__pwned=3) "
                        + "<script>window.__pwned=4</script>"));
        ask("Show me the evil value");
        waitFor(() -> !runs().isEmpty() && finished(lastRun()));
        WebElement run = lastRun();

        assertEquals("<img src=x onerror=\"window.__pwned=1\">",
                run.findElement(By.cssSelector("table.result tbody td")).getText());
        assertTrue(run.findElements(By.cssSelector("img")).isEmpty(), "no image element was made from the data or the model");
        assertTrue(run.findElements(By.cssSelector(".answer script")).isEmpty());
        for (WebElement link : run.findElements(By.cssSelector(".answer a"))) {
            String href = link.getDomAttribute("href");
            assertTrue(href == null || !href.toLowerCase().startsWith("javascript"), href);
            link.click();
        }
        assertNull(browser.executeScript("return window.__pwned"));
    }

    @Test
    void stopCancelsTheRunAndItsStatement() throws Exception {
        model.then(toolCalls(call("slow", "run_sql", "{\"sql\":\"" + ENDLESS_SQL + "\"}")));
        ask("Count everything");
        waitFor(() -> !runs().isEmpty() && !lastRun().findElements(By.cssSelector(".step.tool-call")).isEmpty());
        awaitStatement(true);

        browser.findElement(By.id("question")).sendKeys(Keys.ESCAPE);
        waitFor(() -> finished(lastRun()));
        assertTrue(lastRun().getText().contains("Stopped. The run and its statement were cancelled."), lastRun().getText());
        assertTrue(browser.findElement(By.id("stop")).getDomProperty("hidden").equals("true"));
        awaitStatement(false);
    }

    /**
     * The page's answer stream fails mid-run (a fetch wrapper hands the page the stream up to the
     * first content event and then a network error, while it reads the real connection to its end,
     * so the run itself finishes): the page resumes with Last-Event-ID and shows the whole answer.
     */
    @Test
    void aStreamThatDropsMidRunIsResumedWithLastEventId() {
        // Longer than sqlagent.agent.thinking-lookahead: the answer streams as content from its first piece.
        String first = "The answer, after a long and careful look at every table and every column of the database, "
                + "at each of its rows and at everything learned about it before, ";
        model.then(ScriptedOpenAiServer.slowText(Duration.ofMillis(300), first, "is ", "forty-", "two."));
        Browser.dropChatStreamAfterFirstContent(browser);

        ask("What is the answer?");
        waitFor(() -> !runs().isEmpty() && finished(lastRun()));

        assertEquals(first + "is forty-two.", lastRun().findElement(By.cssSelector(".answer")).getText(), lastRun().getText());
        assertTrue(lastRun().findElements(By.cssSelector(".error")).isEmpty(), lastRun().getText());
        @SuppressWarnings("unchecked")
        List<String> resumedFrom = (List<String>) browser.executeScript("return window.resumedFrom");
        assertEquals(1, resumedFrom.size(), resumedFrom.toString());
        assertTrue(resumedFrom.get(0).matches("[0-9a-f-]{36}:[0-9]+"), resumedFrom.toString());
    }

    @Test
    void aModelErrorIsShownAsAnError() throws Exception {
        model.program(request -> new ScriptedOpenAiServer.Failure(500, "the model fell over"));
        ask("Anything");
        waitFor(() -> !runs().isEmpty() && finished(lastRun()));
        String error = lastRun().findElement(By.cssSelector(".error")).getText();
        assertTrue(error.contains("model_unavailable") && error.contains("500"), error);
        Browser.screenshot(browser, "page-error");
    }

    @Test
    void aFollowUpContinuesTheConversationAndTheListReopensIt() throws Exception {
        model.then(text("There are 3503 tracks."), text("And 275 artists."));
        ask("How many tracks are there?");
        waitFor(() -> runs().size() == 1 && finished(lastRun()));
        ask("And artists?");
        waitFor(() -> runs().size() == 2 && finished(lastRun()));
        String history = model.requests().get(1).path("messages").toString();
        assertTrue(history.contains("How many tracks are there?") && history.contains("There are 3503 tracks."), history);

        browser.findElement(By.id("new-conversation")).click();
        assertTrue(runs().isEmpty());
        WebElement listed = browser.findElements(By.cssSelector("#conversations button")).get(0);
        assertEquals("How many tracks are there?", listed.getText());
        listed.click();
        waitFor(() -> runs().size() == 2);
        assertEquals("And 275 artists.", lastRun().findElement(By.cssSelector(".answer")).getText());

        // Phone width, dark theme: the same conversation.
        Browser.colorScheme(browser, "dark");
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        assertTrue(browser.findElement(By.id("toggle-side")).isDisplayed(), "the conversation list folds away on a phone");
        assertFalse(browser.findElement(By.id("side")).isDisplayed());
        String background = (String) browser.executeScript("return getComputedStyle(document.body).backgroundColor");
        assertEquals("rgb(20, 24, 29)", background);
        Browser.screenshot(browser, "page-phone-dark");
    }

    @Test
    void aChosenToolsetLimitsTheToolsTheModelIsOffered() {
        registry.replaceGroup("page-test", List.of(), List.of(
                new Toolset("page_test_schema", "Schema only", "Only the schema", List.of("introspect_schema"), "page-test")));
        try {
            browser.navigate().refresh();
            waitFor(() -> "true".equals(browser.findElement(By.tagName("body")).getDomAttribute("data-ready")));
            browser.findElement(By.cssSelector("#toolsets-menu summary")).click();
            browser.findElements(By.cssSelector("#toolsets label")).stream()
                    .filter(label -> label.getText().contains("Schema only")).findFirst().orElseThrow()
                    .findElement(By.tagName("input")).click();
            model.then(text("Only the schema for me."));
            ask("What can you do?");
            waitFor(() -> !runs().isEmpty() && finished(lastRun()));
            List<String> offered = new java.util.ArrayList<>();
            model.requests().get(0).path("tools").forEach(tool -> offered.add(tool.path("function").path("name").asText()));
            assertEquals(List.of("introspect_schema"), offered);
        } finally {
            registry.replaceGroup("page-test", List.of(), List.of());
        }
    }

    @Test
    void aJsonDownloadKeepsExactNumbers() throws Exception {
        model.then(toolCalls(call("c1", "run_sql", "{\"sql\":\"SELECT 2.50 AS price, 12345678901234567890 AS big\"}")),
                text("Done."));
        ask("Exact numbers please");
        waitFor(() -> !runs().isEmpty() && finished(lastRun()));
        assertEquals(List.of("2.50", "12345678901234567890"), lastRun().findElements(By.cssSelector("table.result tbody td"))
                .stream().map(WebElement::getText).toList());
        lastRun().findElements(By.cssSelector(".result-bar button")).stream().filter(b -> b.getText().equals("JSON"))
                .findFirst().orElseThrow(() -> new AssertionError("no CSV button in the run: " + lastRun().getText()))
                .click();
        Path json = downloads.resolve("run_sql-result.json");
        waitFor(() -> Files.exists(json));
        String content = Files.readString(json);
        assertTrue(content.contains("\"price\": 2.50") && content.contains("\"big\": 12345678901234567890"), content);
    }

    @Test
    void theKnowledgeViewFindsWhatTheAgentKnows() {
        browser.findElement(By.id("open-knowledge")).click();
        WebElement query = browser.findElement(By.id("knowledge-query"));
        query.sendKeys("revenue by country");
        query.sendKeys(Keys.ENTER);
        waitFor(() -> browser.findElements(By.cssSelector("#knowledge-results .working")).isEmpty()
                && !browser.findElements(By.cssSelector("#knowledge-results .pattern")).isEmpty());
        List<String> found = browser.findElements(By.cssSelector("#knowledge-results .pattern summary")).stream()
                .map(WebElement::getText).toList();
        assertTrue(found.contains("Pattern: revenue_by_country — What is the total revenue by country?"), found.toString());
        browser.findElement(By.cssSelector("#knowledge .dialog-head button")).click();
    }

    void awaitStatement(boolean running) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (true) {
            long count = store
                    .preparedQuery("SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1")
                    .execute(Tuple.of("%track a CROSS JOIN track b%"))
                    .await().atMost(Duration.ofSeconds(5)).iterator().next().getLong("n");
            if ((count > 0) == running) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(running ? "the statement never started" : "the statement is still running");
            }
            Thread.sleep(50);
        }
    }
}
