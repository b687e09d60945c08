package io.sqlagent.eval;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A run's report as one self-contained HTML page (inline style, no script, nothing fetched):
 * summary, accuracy by category, and per case its grades with reasons, the SQL, the rows that
 * differ from the golden result and the trajectory. Every value from a run is escaped.
 */
public final class HtmlReport {

    private static final String STYLE = """
            body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0}
            td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
            .pass{color:#176b2c}.fail{color:#b00020}pre{background:#f5f5f5;padding:.5em;white-space:pre-wrap;margin:.3em 0}
            details{border-bottom:1px solid #eee;padding:.3em 0}summary{cursor:pointer}""";

    private HtmlReport() {
    }

    public static String of(JsonNode report) {
        StringBuilder html = new StringBuilder(16_384);
        JsonNode summary = report.path("summary");
        html.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Eval run ")
                .append(esc(report.path("id").asText())).append("</title><style>").append(STYLE)
                .append("</style></head><body>");
        html.append("<h1>Eval run of suite ").append(esc(report.path("suite").asText())).append("</h1>");
        html.append("<table>");
        row(html, "Run", report.path("id").asText());
        row(html, "Status", report.path("status").asText() + (report.has("error") ? ": " + report.path("error").asText() : ""));
        row(html, "Model", report.path("model").asText());
        row(html, "Started", report.path("started_at").asText());
        row(html, "Finished", report.path("finished_at").asText(""));
        row(html, "Accuracy", percent(summary.path("accuracy")) + " (" + summary.path("passed").asInt() + " of "
                + summary.path("total").asInt() + " passed, " + summary.path("skipped").asInt() + " skipped)");
        row(html, "Hallucinated names", summary.path("hallucinations").asText());
        row(html, "Writes", summary.path("writes").asText());
        row(html, "Tokens",
                summary.path("tokens").path("input").asText() + " in, " + summary.path("tokens").path("output").asText()
                        + " out, " + summary.path("model_calls").asText() + " model calls");
        html.append(
                "</table><h2>By category</h2><table><tr><th>category</th><th>passed</th><th>total</th><th>accuracy</th></tr>");
        for (Iterator<Map.Entry<String, JsonNode>> it = summary.path("by_category").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            html.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(e.getValue().path("passed").asInt())
                    .append("</td><td>").append(e.getValue().path("total").asInt()).append("</td><td>")
                    .append(percent(e.getValue().path("accuracy"))).append("</td></tr>");
        }
        html.append("</table><h2>Cases</h2>");
        for (JsonNode c : report.path("cases")) {
            caseSection(html, c);
        }
        return html.append("</body></html>").toString();
    }

    private static void caseSection(StringBuilder html, JsonNode c) {
        boolean passed = c.path("passed").asBoolean();
        html.append("<details><summary><span class=\"").append(passed ? "pass\">✔" : "fail\">✘").append("</span> ")
                .append(esc(c.path("id").asText())).append(" <small>(").append(esc(c.path("category").asText()))
                .append(")</small></summary>");
        if (c.hasNonNull("skipped")) {
            html.append("<p>Skipped: ").append(esc(c.path("skipped").asText())).append("</p>");
        }
        html.append("<table><tr><th>grade</th><th>result</th><th>reason</th></tr>");
        for (Iterator<Map.Entry<String, JsonNode>> it = c.path("grades").fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> grade = it.next();
            boolean ok = grade.getValue().path("passed").asBoolean();
            html.append("<tr><td>").append(esc(grade.getKey())).append("</td><td class=\"")
                    .append(ok ? "pass\">pass" : "fail\">fail")
                    .append("</td><td>").append(esc(grade.getValue().path("reason").asText())).append("</td></tr>");
        }
        html.append("</table>");
        JsonNode diff = c.path("grades").path("execution").path("details");
        if (diff.has("missing")) {
            html.append("<p>Rows only in the golden result:</p><pre>").append(esc(diff.path("missing").toPrettyString()))
                    .append("</pre><p>Rows only in the agent's result:</p><pre>")
                    .append(esc(diff.path("unexpected").toPrettyString()))
                    .append("</pre>");
        }
        for (JsonNode turn : c.path("turns")) {
            html.append("<p><b>Q:</b> ").append(esc(turn.path("question").asText())).append("</p><ol>");
            for (JsonNode step : turn.path("steps")) {
                html.append("<li>").append(esc(step.path("tool").asText())).append(" — ")
                        .append(esc(step.path("outcome").asText()))
                        .append("<pre>").append(esc(step.path("arguments").toString())).append("</pre>");
                if (step.has("error")) {
                    html.append("<pre class=\"fail\">").append(esc(step.path("error").asText())).append("</pre>");
                }
                html.append("</li>");
            }
            html.append("</ol>");
            if (turn.has("sql")) {
                html.append("<p>Final SQL:</p><pre>").append(esc(turn.path("sql").asText())).append("</pre>");
            }
            html.append("<p><b>A:</b> ").append(esc(turn.path("answer").asText())).append("</p>");
        }
        html.append("</details>");
    }

    private static void row(StringBuilder html, String name, String value) {
        html.append("<tr><th>").append(esc(name)).append("</th><td>").append(esc(value)).append("</td></tr>");
    }

    private static String percent(JsonNode ratio) {
        return String.format(java.util.Locale.ROOT, "%.1f%%", ratio.asDouble() * 100);
    }

    static String esc(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char ch : text.toCharArray()) {
            switch (ch) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }
}
