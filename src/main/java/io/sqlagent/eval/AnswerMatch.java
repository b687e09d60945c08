package io.sqlagent.eval;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Answer match: each expected value must appear in the answer text. Numbers are read out of the
 * text however they are written — {@code 3,503}, {@code 3503}, {@code $2,328.60}, {@code 45%} — and
 * compared within the {@link Tolerance}; an abbreviated number ({@code 3.5k}, {@code 1.2M},
 * {@code 2B}) matches a value that rounds to it at the precision written (3.5k: 3450 to 3549).
 * Text is found case-insensitively with whitespace collapsed. MessageText the case forbids must not
 * appear at all.
 */
public final class AnswerMatch {

    // A number with optional thousands separators (comma, thin or normal space between groups of three), decimals and a k/M/B suffix.
    private static final Pattern NUMBER = Pattern.compile(
            "(?<![\\w.])-?(\\d{1,3}(?:[,\u202f\u00a0]\\d{3})+|\\d+)(\\.\\d+)?\\s?([kKmMbB](?![a-zA-Z]))?");

    private AnswerMatch() {
    }

    /** Grades {@code answer} against the expected values and forbidden texts. */
    public static Grade grade(String answer, List<JsonNode> expected, List<String> forbidden, Tolerance tolerance) {
        String text = normal(answer == null ? "" : answer);
        List<Written> numbers = numbers(text);
        List<String> missing = new ArrayList<>();
        for (JsonNode value : expected) {
            Object wanted = ExecutionMatch.canonical(value);
            boolean found = wanted instanceof BigDecimal number
                    ? numbers.stream().anyMatch(written -> written.matches(number, tolerance))
                    : text.contains(normal(String.valueOf(wanted)));
            if (!found) {
                missing.add(value.asText());
            }
        }
        List<String> present = forbidden.stream().filter(f -> text.contains(normal(f))).toList();
        if (!present.isEmpty()) {
            return Grade.fail("The answer contains what it must not: " + present);
        }
        if (!missing.isEmpty()) {
            return Grade.fail("The answer does not contain " + missing);
        }
        return Grade.pass(expected.isEmpty() ? "Nothing forbidden in the answer"
                : "The answer contains every expected value " + expected.stream().map(JsonNode::asText).toList());
    }

    /** A number as written in the answer: its value, and for an abbreviated one the precision it was written to. */
    record Written(BigDecimal value, BigDecimal step) {

        boolean matches(BigDecimal expected, Tolerance tolerance) {
            if (step == null) {
                return tolerance.equal(value, expected);
            }
            // 3.5k has step 100: it stands for every value that rounds to 3500 at that step.
            BigDecimal rounded = expected.divide(step, 0, RoundingMode.HALF_UP).multiply(step);
            return rounded.compareTo(value) == 0;
        }
    }

    static List<Written> numbers(String text) {
        List<Written> numbers = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            String digits = m.group(1).replaceAll("[,\u202f\u00a0]", "");
            String decimals = m.group(2) == null ? "" : m.group(2);
            BigDecimal value = new BigDecimal((m.group().startsWith("-") ? "-" : "") + digits + decimals);
            String suffix = m.group(3);
            if (suffix == null) {
                numbers.add(new Written(value, null));
                continue;
            }
            BigDecimal factor = switch (suffix.toLowerCase(Locale.ROOT)) {
                case "k" -> BigDecimal.valueOf(1_000);
                case "m" -> BigDecimal.valueOf(1_000_000);
                default -> BigDecimal.valueOf(1_000_000_000);
            };
            BigDecimal step = BigDecimal.ONE.movePointLeft(decimals.isEmpty() ? 0 : decimals.length() - 1).multiply(factor);
            numbers.add(new Written(value.multiply(factor), step));
            // "5 m" may also be five metres or minutes: keep the bare number too.
            numbers.add(new Written(value, null));
        }
        return numbers;
    }

    private static String normal(String text) {
        return Normalizer.normalize(text, Normalizer.Form.NFC).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    }
}
