package io.sqlagent.page;

import static io.sqlagent.agent.ScriptedOpenAiServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.agent.ScriptedOpenAiServer;

/**
 * The JavaScript client of docs/api.md ("A JavaScript client"), exactly as the page prints it, run in headless Chromium
 * against the running service and the scripted model: it follows a run, resumes it with {@code Last-Event-ID} when
 * its connection drops, stops on {@code done} and on the service's {@code error}, and the {@code EventSource} watcher
 * tells the service's {@code error} event from its own connection error and does not reconnect after the end.
 */
@QuarkusTest
@ScriptedModel
class SseClientExampleTest extends ScriptedPageTest {

    static String example;

    @BeforeAll
    static void readExample() throws Exception {
        example = String.join("\n", javascriptBlocks(Path.of("docs", "api.md"), "### A JavaScript client"));
    }

    /** The {@code javascript} code blocks of the section under {@code heading}, as written. */
    static List<String> javascriptBlocks(Path markdown, String heading) throws IOException {
        String text = Files.readString(markdown);
        int start = text.indexOf("\n" + heading + "\n");
        assertThat(start).as("%s in %s", heading, markdown).isNotNegative();
        int end = text.indexOf("\n#", start + heading.length() + 2);
        Matcher blocks = Pattern.compile("```javascript\n(.*?)\n```", Pattern.DOTALL)
                .matcher(text.substring(start, end < 0 ? text.length() : end));
        List<String> found = new ArrayList<>();
        while (blocks.find()) {
            found.add(blocks.group(1));
        }
        assertThat(found).as("the section's examples").hasSize(2);
        return found;
    }

    @BeforeEach
    void installExample() {
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        // The example's functions, as a page script would have them (run through the driver: the page's policy
        // allows no inline script, and a client page would load them from a file).
        browser.executeScript(example + "\nwindow.ask = ask; window.watch = watch;");
        browser.executeScript("""
                window.requests = [];
                new PerformanceObserver((list) => list.getEntries().forEach((e) => window.requests.push(e.name)))
                  .observe({ type: 'resource', buffered: true });
                """);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> askWithExample(String question) {
        return (Map<String, Object>) browser.executeAsyncScript("""
                const finished = arguments[arguments.length - 1];
                const events = [];
                let answer = '';
                ask(arguments[0], (name, data) => {
                  events.push(name);
                  if (name === 'content') answer += data.delta;
                  if (name === 'conversation') window.conversation = data.conversation_id;
                }).then((done) => finished({ events, answer, done }), (e) => finished({ events, answer, failed: e.message }));
                """, question);
    }

    @SuppressWarnings("unchecked")
    private static List<String> requestsTo(String part) {
        return ((List<String>) browser.executeScript("return window.requests")).stream().filter(url -> url.contains(part))
                .toList();
    }

    @Test
    void theClientResumesADroppedStreamWithLastEventIdAndStopsOnDone() throws Exception {
        // Longer than sqlagent.agent.thinking-lookahead: the answer streams as content from its first piece.
        String first = "The answer, after a long and careful look at every table and every column of the database, "
                + "at each of its rows and at everything learned about it before, ";
        model.then(ScriptedOpenAiServer.slowText(Duration.ofMillis(300), first, "is ", "forty-", "two."));
        Browser.dropChatStreamAfterFirstContent(browser);

        Map<String, Object> outcome = askWithExample("What is the answer?");

        assertThat(outcome).doesNotContainKey("failed");
        assertThat(outcome.get("answer")).isEqualTo(first + "is forty-two.");
        @SuppressWarnings("unchecked")
        List<String> events = (List<String>) outcome.get("events");
        assertThat(events.get(0)).isEqualTo("conversation");
        assertThat(events.get(events.size() - 1)).isEqualTo("done");
        assertThat(events).filteredOn("done"::equals).hasSize(1);
        assertThat(((Map<?, ?>) outcome.get("done")).get("stop_reason")).isEqualTo("answer");
        @SuppressWarnings("unchecked")
        List<String> resumedFrom = (List<String>) browser.executeScript("return window.resumedFrom");
        assertThat(resumedFrom).singleElement().asString().matches("[0-9a-f-]{36}:[0-9]+");

        // Done is the end: no request follows it.
        Thread.sleep(1500);
        assertThat(requestsTo("/api/chat/runs/")).hasSize(1);
    }

    @Test
    void theServicesErrorEventEndsTheClientWithoutAResume() {
        model.program(request -> new ScriptedOpenAiServer.Failure(400, "the model refused the request"));

        Map<String, Object> outcome = askWithExample("Anything");

        assertThat((String) outcome.get("failed")).startsWith("model_error: ");
        assertThat(outcome.get("events")).isEqualTo(List.of("conversation", "error"));
        assertThat(requestsTo("/api/chat/runs/")).isEmpty();
    }

    @Test
    void anEventSourceWatcherGetsTheWholeRunAndClosesOnDoneAndOnTheServicesError() throws Exception {
        model.then(text("There are ", "3503 tracks."));
        assertThat(askWithExample("How many tracks?")).containsEntry("answer", "There are 3503 tracks.");
        assertThat(watchLastRun()).containsEntry("answer", "There are 3503 tracks.").containsEntry("last", "done")
                .containsEntry("state", 2L);

        model.program(request -> new ScriptedOpenAiServer.Failure(400, "the model refused the request"));
        askWithExample("Anything");
        Map<String, Object> failed = watchLastRun();
        assertThat(failed).containsEntry("last", "error").containsEntry("state", 2L);
        assertThat((String) failed.get("error")).isEqualTo("model_error");

        // Closed, not reconnecting: EventSource would try again after about 3 s.
        Thread.sleep(3500);
        assertThat(requestsTo("/events")).hasSize(2);
    }

    /** Watches the last run the example asked with the example's {@code watch}, until it closes the source itself. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> watchLastRun() {
        return (Map<String, Object>) browser.executeAsyncScript("""
                const finished = arguments[arguments.length - 1];
                fetch(`/api/conversations/${window.conversation}`).then((r) => r.json()).then((conversation) => {
                  const runId = conversation.runs[conversation.runs.length - 1].run_id;
                  let answer = '';
                  let error = null;
                  let last = null;
                  const source = watch(runId, (name, data) => {
                    last = name;
                    if (name === 'content') answer += data.delta;
                    if (name === 'error') error = data.code;
                  });
                  const check = setInterval(() => {
                    if (source.readyState === EventSource.CLOSED) {
                      clearInterval(check);
                      finished({ answer, last, error, state: source.readyState });
                    }
                  }, 50);
                });
                """);
    }
}
