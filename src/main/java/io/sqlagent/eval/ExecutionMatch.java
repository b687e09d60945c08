package io.sqlagent.eval;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Execution match: the agent's final result against the golden one. Rows are compared as a
 * multiset or, when the golden SQL orders its result, as a sequence; column names and order are
 * ignored (each golden column is matched to a column of the agent's result holding the same
 * values), extra columns in the agent's result are allowed unless the case says otherwise; numbers
 * are equal within the {@link Tolerance}, a number written as text counts as that number and a
 * timestamp at midnight as its date. Written here because comparing results under these rules is
 * the point of the grader; no library does it.
 */
public final class ExecutionMatch {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");
    private static final Pattern MIDNIGHT = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[T ]00:00(:00(\\.0+)?)?");
    private static final int SHOWN_ROWS = 5;

    private ExecutionMatch() {
    }

    /** Grades {@code actual} against {@code golden}. */
    public static Grade grade(ResultTable golden, ResultTable actual, boolean ordered, boolean extraColumns,
            Tolerance tolerance) {
        List<List<Object>> want = canonical(golden.rows());
        List<List<Object>> got = canonical(actual.rows());
        String how = ordered ? "in order" : "as a set";
        int goldenWidth = golden.width();
        int actualWidth = actual.width();
        if (actual.truncated()) {
            return diff(Grade.fail("The agent's result was cut at the service's row or size limit, so it cannot be compared"),
                    want, got, List.of());
        }
        if (actualWidth < goldenWidth || (!extraColumns && actualWidth != goldenWidth)) {
            return diff(Grade.fail(
                    "Expected " + goldenWidth + " column(s)" + (extraColumns ? " or more" : "") + ", the agent's result has "
                            + actualWidth),
                    want, got, List.of());
        }
        if (want.size() != got.size()) {
            return diff(Grade.fail("Expected " + want.size() + " row(s), the agent's result has " + got.size()), want, got,
                    List.of());
        }
        List<List<Integer>> candidates = new ArrayList<>();
        for (int g = 0; g < goldenWidth; g++) {
            List<Integer> matching = new ArrayList<>();
            for (int a = 0; a < actualWidth; a++) {
                if (rowsMatch(column(want, g), column(got, a), ordered, tolerance)) {
                    matching.add(a);
                }
            }
            candidates.add(matching);
        }
        Optional<List<Integer>> mapping = assign(candidates, 0, new ArrayList<>(), want, got, ordered, tolerance);
        if (mapping.isPresent()) {
            return Grade.pass(want.size() + " row(s) match " + how + " (golden columns " + golden.columns() + " found as "
                    + mapping.get().stream().map(i -> i < actual.columns().size() ? actual.columns().get(i) : "#" + i).toList()
                    + ")");
        }
        List<Integer> positional = new ArrayList<>();
        for (int g = 0; g < goldenWidth; g++) {
            positional.add(candidates.get(g).isEmpty() ? g : candidates.get(g).get(0));
        }
        long unmatched = candidates.stream().filter(List::isEmpty).count();
        String reason = unmatched > 0
                ? unmatched + " of " + goldenWidth
                        + " golden column(s) have no column with the same values in the agent's result"
                : "Every golden column has a matching column, but not in the same rows";
        return diff(Grade.fail(reason + " (compared " + how + ")"), want, got, positional);
    }

    private static Optional<List<Integer>> assign(List<List<Integer>> candidates, int index, List<Integer> chosen,
            List<List<Object>> want, List<List<Object>> got, boolean ordered, Tolerance tolerance) {
        if (index == candidates.size()) {
            return rowsMatch(want, project(got, chosen), ordered, tolerance) ? Optional.of(List.copyOf(chosen))
                    : Optional.empty();
        }
        for (int candidate : candidates.get(index)) {
            if (chosen.contains(candidate)) {
                continue;
            }
            chosen.add(candidate);
            Optional<List<Integer>> found = assign(candidates, index + 1, chosen, want, got, ordered, tolerance);
            chosen.remove(chosen.size() - 1);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static boolean rowsMatch(List<List<Object>> want, List<List<Object>> got, boolean ordered, Tolerance tolerance) {
        if (want.size() != got.size()) {
            return false;
        }
        List<List<Object>> left = ordered ? want : sorted(want);
        List<List<Object>> right = ordered ? got : sorted(got);
        for (int i = 0; i < left.size(); i++) {
            if (!rowEqual(left.get(i), right.get(i), tolerance)) {
                return false;
            }
        }
        return true;
    }

    private static boolean rowEqual(List<Object> a, List<Object> b, Tolerance tolerance) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!cellEqual(a.get(i), b.get(i), tolerance)) {
                return false;
            }
        }
        return true;
    }

    static boolean cellEqual(Object a, Object b, Tolerance tolerance) {
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return tolerance.equal(x, y);
        }
        return Objects.equals(a, b);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort((x, y) -> {
            for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                int c = compareCells(x.get(i), y.get(i));
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(x.size(), y.size());
        });
        return copy;
    }

    private static int compareCells(Object a, Object b) {
        int rankA = rank(a);
        int rankB = rank(b);
        if (rankA != rankB) {
            return Integer.compare(rankA, rankB);
        }
        if (a instanceof BigDecimal x) {
            return x.compareTo((BigDecimal) b);
        }
        return a == null ? 0 : ((String) a).compareTo((String) b);
    }

    private static int rank(Object cell) {
        return cell == null ? 0 : cell instanceof BigDecimal ? 1 : 2;
    }

    private static List<List<Object>> column(List<List<Object>> rows, int index) {
        return project(rows, List.of(index));
    }

    private static List<List<Object>> project(List<List<Object>> rows, List<Integer> columns) {
        return rows.stream().map(row -> {
            List<Object> projected = new ArrayList<>(columns.size());
            columns.forEach(c -> projected.add(c < row.size() ? row.get(c) : null));
            return projected;
        }).toList();
    }

    private static List<List<Object>> canonical(List<List<JsonNode>> rows) {
        return rows.stream().map(row -> {
            List<Object> cells = new ArrayList<>(row.size());
            row.forEach(value -> cells.add(canonical(value)));
            return cells;
        }).toList();
    }

    /** A value as the graders compare it: null, a number, or text. */
    static Object canonical(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        if (value.isNumber()) {
            return value.decimalValue();
        }
        if (value.isBoolean()) {
            return String.valueOf(value.booleanValue());
        }
        if (!value.isTextual()) {
            return value.toString();
        }
        String text = value.textValue().strip();
        if (NUMBER.matcher(text).matches()) {
            return new BigDecimal(text);
        }
        var midnight = MIDNIGHT.matcher(text);
        return midnight.matches() ? midnight.group(1) : text;
    }

    /** Adds the rows only one side has (with the columns compared) to a failing grade. */
    private static Grade diff(Grade grade, List<List<Object>> want, List<List<Object>> got, List<Integer> columns) {
        List<List<Object>> right = columns.isEmpty() ? got : project(got, columns);
        ObjectNode details = NODES.objectNode();
        details.set("missing", rows(difference(want, right)));
        details.set("unexpected", rows(difference(right, want)));
        details.put("expected_rows", want.size());
        details.put("actual_rows", got.size());
        return grade.with(details);
    }

    private static List<List<Object>> difference(List<List<Object>> from, List<List<Object>> remove) {
        List<List<Object>> left = new ArrayList<>(remove);
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : from) {
            int at = -1;
            for (int i = 0; i < left.size() && at < 0; i++) {
                if (rowEqual(row, left.get(i), Tolerance.DEFAULT)) {
                    at = i;
                }
            }
            if (at >= 0) {
                left.remove(at);
            } else {
                out.add(row);
            }
        }
        return out;
    }

    private static ArrayNode rows(List<List<Object>> rows) {
        ArrayNode array = NODES.arrayNode();
        rows.stream().limit(SHOWN_ROWS).forEach(row -> {
            ArrayNode cells = array.addArray();
            row.forEach(cell -> {
                if (cell == null) {
                    cells.addNull();
                } else if (cell instanceof BigDecimal number) {
                    cells.add(number);
                } else {
                    cells.add(cell.toString());
                }
            });
        });
        return array;
    }

    /** Whether {@code sql} orders its result: an ORDER BY outside any parentheses, strings and comments. */
    public static boolean orders(String sql) {
        String code = sql.replaceAll("'(?:[^']|'')*'", "''").replaceAll("--[^\\n]*", " ").replaceAll("(?s)/\\*.*?\\*/", " ")
                .toLowerCase(java.util.Locale.ROOT);
        int depth = 0;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && code.startsWith("order", i) && (i == 0 || !Character.isLetterOrDigit(code.charAt(i - 1)))
                    && code.substring(i + 5).stripLeading().startsWith("by")) {
                return true;
            }
        }
        return false;
    }
}
