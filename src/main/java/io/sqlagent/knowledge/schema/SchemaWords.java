package io.sqlagent.knowledge.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns identifiers and prose into the words the lexical ranking compares: {@code invoiceLine} and
 * {@code invoice_lines} both become {@code invoice line}. Written here rather than taken from Lucene's
 * analysis-common module (word-delimiter and stemming filters): the splitting is a few lines, and the
 * module would be a dependency for that alone. The stemming is deliberately light (plurals), so that
 * a table named {@code orders} matches a question about an order without conflating unrelated words.
 */
final class SchemaWords {

    /** Words that say nothing about which table a question needs. */
    private static final Set<String> STOP = Set.of("a", "an", "and", "are", "as", "at", "be", "by", "did", "do", "does",
            "each", "for", "from", "get", "give", "had", "has", "have", "how", "i", "in", "is", "it", "its", "list", "many",
            "me", "much", "my", "of", "on", "or", "our", "per", "show", "than", "that", "the", "their", "them", "there",
            "these", "this", "to", "us", "was", "we", "were", "what", "when", "where", "which", "who", "whose", "why",
            "will", "with", "all", "any", "most", "top", "number", "table", "tables", "data", "can", "should", "would",
            "find", "between", "over", "into", "across", "so", "not", "no", "yes");

    /** An apostrophe and what follows it in a possessive or contraction ({@code 's}, {@code n't}, {@code 've}, …). */
    private static final Pattern CONTRACTION = Pattern.compile("(?<=\\p{L})(n['’]t|['’](s|re|ve|ll|d|m))\\b",
            Pattern.CASE_INSENSITIVE);

    private SchemaWords() {
    }

    /** The words of {@code text}, split at case changes, digits and punctuation, lower-cased, stop words dropped, stemmed. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        if (text == null) {
            return words;
        }
        for (String word : split(text).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty() && !STOP.contains(word)) {
                words.add(stem(word));
            }
        }
        return words;
    }

    /**
     * The words that the name words of {@code names} run together ({@code salesorderheader} → sale order header; see
     * {@link Expansions#parts}), stemmed, stop words dropped; none for a name word that is a word or not made of words.
     */
    static List<String> parts(String names) {
        List<String> words = new ArrayList<>();
        if (names == null) {
            return words;
        }
        Expansions expansions = Expansions.english();
        for (String word : split(names).split("[^\\p{L}\\p{N}]+")) {
            List<String> parts = word.isEmpty() ? List.of() : expansions.parts(word);
            if (parts.size() > 1) {
                for (String part : parts) {
                    if (!STOP.contains(part)) {
                        words.add(stem(part));
                    }
                }
            }
        }
        return words;
    }

    /**
     * The words of {@code text} split as {@link #words} splits them, lower-cased, stop words kept and nothing stemmed:
     * the question as written, for the initials of its words.
     */
    static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        if (text != null) {
            for (String word : split(text).split("[^\\p{L}\\p{N}]+")) {
                if (!word.isEmpty() && Character.isLetter(word.charAt(0))) {
                    tokens.add(word);
                }
            }
        }
        return tokens;
    }

    /** Whether {@code word} (lower-case) is one of the words that say nothing about a table. */
    static boolean isStop(String word) {
        return STOP.contains(word);
    }

    private static String split(String text) {
        // What's, Linda's, don't, we've: the letters after the apostrophe are no word of their own, and as one they matched
        // every comment with a possessive in it (a vendor's, the company's).
        text = CONTRACTION.matcher(text).replaceAll("");
        // customerID -> customer ID, invoiceLine -> invoice Line, v2Orders -> v2 Orders
        return text.replaceAll("([\\p{Ll}\\p{N}])(\\p{Lu})", "$1 $2").replaceAll("(\\p{Lu})(\\p{Lu}\\p{Ll})", "$1 $2")
                .toLowerCase(Locale.ROOT);
    }

    /** The words joined by spaces: the form the index stores. */
    static String terms(String text) {
        return String.join(" ", words(text));
    }

    /** Plural to singular and a past tense to its verb ({@code ordered} → {@code order}), conservatively. */
    static String stem(String word) {
        int n = word.length();
        if (n > 5 && word.endsWith("ed") && !word.endsWith("eed")) {
            // shipped -> ship, planned -> plan; billed and passed keep their double letter
            char last = word.charAt(n - 3);
            boolean doubled = last == word.charAt(n - 4) && "lsz".indexOf(last) < 0 && "aeiou".indexOf(last) < 0;
            return word.substring(0, doubled ? n - 3 : n - 2);
        }
        if (n > 4 && word.endsWith("ies")) {
            return word.substring(0, n - 3) + "y";
        }
        if (n > 4 && (word.endsWith("sses") || word.endsWith("xes") || word.endsWith("ches") || word.endsWith("shes"))) {
            return word.substring(0, n - 2);
        }
        if (n > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) {
            return word.substring(0, n - 1);
        }
        return word;
    }

    /** {@code text} cut to {@code max} characters at a word boundary, marked with an ellipsis when cut. */
    static String cut(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = text.lastIndexOf(' ', max - 1);
        return text.substring(0, end > max / 2 ? end : max - 1) + "…";
    }

    /**
     * Whether the model can read anything in {@code query}: a letter or a digit. Its tokenizer finds nothing in a zero-width
     * space, a NUL or half a surrogate pair and refuses to embed them; such a query is ranked by words alone.
     */
    static boolean hasWord(String query) {
        return query.codePoints().anyMatch(Character::isLetterOrDigit);
    }
}
