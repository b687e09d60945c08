// Runs an evaluation on a running sqlagent and exits non-zero below a threshold, for CI pipelines.
//
//   java bin/sqlagent-eval.java [--url http://localhost:8080] [--suite chinook | --file cases.yaml]
//        [--tags a,b] [--threshold 0.8] [--concurrency N] [--max-tokens N] [--timeout 30m] [--judge]
//        [--key API_KEY] [--report report.json] [--html report.html]
//
// Needs only a JDK 17 (single-file launch, java.net.http). Progress goes to stderr as a bar; the
// summary to stdout. Exit 0: accuracy at or above the threshold; 1: below it (or the run failed);
// 2: the run could not be started or followed (bad arguments, HTTP errors: the service's message is shown).
// It reads the few JSON fields it needs with patterns instead of a JSON library, so that it runs
// without a classpath; the service's own reports (--report, --html) are written as the service sent them.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class SqlagentEval {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--judge") || arg.equals("--help")) {
                options.put(arg.substring(2), "true");
            } else if (arg.startsWith("--") && i + 1 < args.length) {
                options.put(arg.substring(2), args[++i]);
            } else {
                fail("unknown argument " + arg + " (see --help)");
            }
        }
        if (options.containsKey("help")) {
            System.out.println("java bin/sqlagent-eval.java [--url URL] [--suite NAME | --file CASES.yaml] [--tags a,b] "
                    + "[--threshold 0.8] [--concurrency N] [--max-tokens N] [--timeout 30m] [--judge] [--key API_KEY] "
                    + "[--report FILE.json] [--html FILE.html]");
            return;
        }
        String url = options.getOrDefault("url", "http://localhost:8080").replaceAll("/+$", "");
        double threshold = number(options.getOrDefault("threshold", "0"), "--threshold");
        if (threshold < 0 || threshold > 1) {
            fail("--threshold must be between 0 and 1, such as 0.8");
        }
        StringBuilder body = new StringBuilder("{");
        if (options.containsKey("file")) {
            body.append("\"yaml\":").append(quote(Files.readString(Path.of(options.get("file")))));
        } else {
            body.append("\"suite\":").append(quote(options.getOrDefault("suite", "chinook")));
        }
        if (options.containsKey("tags")) {
            body.append(",\"tags\":[");
            String[] tags = options.get("tags").split(",");
            for (int i = 0; i < tags.length; i++) {
                body.append(i == 0 ? "" : ",").append(quote(tags[i].strip()));
            }
            body.append("]");
        }
        for (String name : new String[] { "concurrency", "max-tokens" }) {
            if (options.containsKey(name)) {
                body.append(",\"").append(name.replace('-', '_')).append("\":").append((long) number(options.get(name), "--" + name));
            }
        }
        if (options.containsKey("timeout")) {
            body.append(",\"timeout\":").append(quote(options.get("timeout")));
        }
        if (options.containsKey("judge")) {
            body.append(",\"judge\":true");
        }
        body.append("}");

        HttpResponse<String> started = HTTP.send(request(url + "/api/evals/runs", options)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        if (started.statusCode() != 202) {
            fail("the run could not start: HTTP " + started.statusCode() + " " + field(started.body(), "message", started.body()));
        }
        String id = field(started.body(), "id", null);
        System.err.println("eval run " + id);

        HttpResponse<java.io.InputStream> events = HTTP.send(request(url + "/api/evals/runs/" + id + "/events", options)
                .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        if (events.statusCode() != 200) {
            fail("the run's progress could not be read: HTTP " + events.statusCode());
        }
        int passed = 0;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(events.body(), StandardCharsets.UTF_8))) {
            String event = null;
            for (String line; (line = reader.readLine()) != null;) {
                if (line.startsWith("event:")) {
                    event = line.substring(6).strip();
                } else if (line.startsWith("data:") && "case".equals(event)) {
                    String data = line.substring(5);
                    if ("true".equals(field(data, "passed", ""))) {
                        passed++;
                    }
                    bar((int) number(field(data, "done", "0"), "done"), (int) number(field(data, "total", "0"), "total"), passed);
                } else if (line.startsWith("data:") && "done".equals(event)) {
                    // A run that ended before we listened sends its done event only: its summary fills the bar.
                    String data = line.substring(5);
                    int total = (int) number(field(data, "total", "0"), "total");
                    bar(total, total, (int) number(field(data, "passed", "0"), "passed"));
                    break;
                }
            }
        }
        System.err.println();

        HttpResponse<String> report = HTTP.send(request(url + "/api/evals/runs/" + id, options).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (report.statusCode() != 200) {
            fail("the report could not be read: HTTP " + report.statusCode());
        }
        if (options.containsKey("report")) {
            Files.writeString(Path.of(options.get("report")), report.body());
        }
        if (options.containsKey("html")) {
            HttpResponse<String> html = HTTP.send(request(url + "/api/evals/runs/" + id + "/report.html", options).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            Files.writeString(Path.of(options.get("html")), html.body());
        }
        String status = field(report.body(), "status", "?");
        double accuracy = number(field(report.body(), "accuracy", "0"), "accuracy");
        System.out.printf("run %s %s: %s of %s passed, accuracy %.1f%% (threshold %.1f%%)%n", id, status,
                field(report.body(), "passed", "?"), field(report.body(), "total", "?"), accuracy * 100, threshold * 100);
        System.exit(!"done".equals(status) || accuracy < threshold ? 1 : 0);
    }

    private static HttpRequest.Builder request(String url, Map<String, String> options) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofHours(12));
        if (options.containsKey("key")) {
            builder.header("Authorization", "Bearer " + options.get("key"));
        }
        return builder;
    }

    /** The first value of {@code "name":} in {@code json}: a string's text, or a number or literal as written. */
    private static String field(String json, String name, String otherwise) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|[-0-9.eE+]+|true|false|null)")
                .matcher(json);
        if (!m.find()) {
            return otherwise;
        }
        return m.group(2) != null ? m.group(2).replace("\\\"", "\"").replace("\\\\", "\\") : m.group(1);
    }

    private static void bar(int done, int total, int passed) {
        int width = 30;
        int filled = total == 0 ? 0 : done * width / total;
        System.err.print("\r[" + "#".repeat(filled) + ".".repeat(width - filled) + "] " + done + "/" + total + " cases, "
                + passed + " passed");
    }

    private static double number(String text, String what) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            fail(what + " must be a number, not " + text);
            return 0;
        }
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }

    private static void fail(String message) {
        System.err.println("sqlagent-eval: " + message);
        System.exit(2);
    }
}
