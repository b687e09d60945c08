package io.sqlagent.knowledge.schema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The words of an index's table and column names that abbreviate a question's word: {@code cust} and {@code cst} for
 * {@code customer}, {@code ord} for {@code order}, {@code hdr} for {@code header}, {@code qty} for {@code quantity}.
 * A name's word abbreviates a longer word when it starts with the same letter and its letters appear in the longer
 * word in order, which is how abbreviations in schemas are formed (a prefix, or the consonants); no dictionary of
 * abbreviations is kept, so the rule serves any schema's conventions. Written here because Lucene's fuzzy and prefix
 * queries match words that differ by a few letters or extend a prefix, not the dropped letters of an abbreviation.
 */
final class Abbreviations {

    /** What an abbreviation counts for against the word itself. */
    static final float WEIGHT = 0.6f;
    /** What a name word derived from the question's word ({@code rental} for {@code rent}) counts for. */
    static final float DERIVED_WEIGHT = 0.8f;
    /** The shortest abbreviation matched: two letters match too many words. */
    private static final int SHORTEST = 3;
    /** At most this many abbreviations per word, the longest first. */
    private static final int MOST = 8;
    private static final int CACHED = 10_000;
    /**
     * English endings that make a noun or adjective of a word ({@code rent} → {@code rental}, {@code pay} →
     * {@code payment}, {@code ship} → {@code shipment}): the light stemming of {@link SchemaWords} keeps them apart.
     */
    private static final List<String> DERIVED = List.of("al", "ment", "ing", "er", "ee", "ion", "ation", "y", "ery",
            "age", "ance", "ence", "ity");

    /** The longest initialism matched ({@code rfq}): longer runs of initials are words of their own. */
    private static final int LONGEST_INITIALISM = 4;

    private final Map<Character, List<String>> byInitial = new java.util.HashMap<>();
    /** The name words short enough to be initialisms ({@code po}, {@code rfq}, {@code sla}). */
    private final Set<String> shortWords = new HashSet<>();
    private final Map<String, List<String>> cache = new ConcurrentHashMap<>();
    private final Map<String, List<String>> derivedCache = new ConcurrentHashMap<>();

    Abbreviations(List<SchemaIndex.Entry> entries) {
        Set<String> vocabulary = new HashSet<>();
        for (SchemaIndex.Entry entry : entries) {
            vocabulary.addAll(List.of(entry.name().split(" ")));
            vocabulary.addAll(List.of(entry.columns().split(" ")));
        }
        for (String word : vocabulary) {
            if (word.length() >= 2 && word.length() <= LONGEST_INITIALISM && word.chars().allMatch(Character::isLetter)) {
                shortWords.add(word);
            }
            if (word.length() >= SHORTEST && Character.isLetter(word.charAt(0))) {
                byInitial.computeIfAbsent(word.charAt(0), key -> new ArrayList<>()).add(word);
            }
        }
        byInitial.values().forEach(words -> words.sort((a, b) -> b.length() != a.length() ? b.length() - a.length()
                : a.compareTo(b)));
    }

    /** The name words that abbreviate {@code word} (not {@code word} itself), the longest first. */
    List<String> of(String word) {
        if (word.length() <= SHORTEST || !Character.isLetter(word.charAt(0))) {
            return List.of();
        }
        return cached(cache, word, candidate -> candidate.length() < word.length() && isSubsequence(candidate, word));
    }

    /** The name words that derive from {@code word} by one of {@link #DERIVED} ({@code rental} for {@code rent}). */
    List<String> derived(String word) {
        if (word.length() < SHORTEST || !Character.isLetter(word.charAt(0))) {
            return List.of();
        }
        return cached(derivedCache, word, candidate -> candidate.length() > word.length() && candidate.startsWith(word)
                && DERIVED.contains(candidate.substring(word.length())));
    }

    /**
     * The name words that are the initials of consecutive words of {@code question}: {@code po} for "purchase orders",
     * {@code rfq} for "requests for quotation", {@code sla} for "service level agreement". The initials are taken of the
     * question's words as written (plural or not), of its content words only and, when the run starts and ends with one,
     * of every word ("for" in "request for quotation").
     */
    Set<String> initialisms(String question) {
        List<String> tokens = SchemaWords.tokens(question);
        Set<String> found = new HashSet<>();
        for (int from = 0; from < tokens.size(); from++) {
            if (SchemaWords.isStop(tokens.get(from))) {
                continue;
            }
            StringBuilder content = new StringBuilder();
            StringBuilder every = new StringBuilder();
            for (int to = from; to < tokens.size() && content.length() < LONGEST_INITIALISM; to++) {
                String token = tokens.get(to);
                every.append(token.charAt(0));
                if (SchemaWords.isStop(token)) {
                    continue;
                }
                content.append(token.charAt(0));
                if (content.length() >= 2 && shortWords.contains(content.toString())) {
                    found.add(content.toString());
                }
                if (every.length() > content.length() && every.length() <= LONGEST_INITIALISM
                        && shortWords.contains(every.toString())) {
                    found.add(every.toString());
                }
            }
        }
        return found;
    }

    /** At most {@link #MOST} name words with {@code word}'s initial that {@code matches}, the longest first. */
    private List<String> cached(Map<String, List<String>> cached, String word, Predicate<String> matches) {
        List<String> known = cached.get(word);
        if (known != null) {
            return known;
        }
        List<String> found = new ArrayList<>();
        for (String candidate : byInitial.getOrDefault(word.charAt(0), List.of())) {
            if (matches.test(candidate)) {
                found.add(candidate);
                if (found.size() == MOST) {
                    break;
                }
            }
        }
        List<String> result = List.copyOf(found);
        // Bounded: the words come from questions.
        if (cached.size() < CACHED) {
            cached.put(word, result);
        }
        return result;
    }

    private static boolean isSubsequence(String shorter, String longer) {
        int at = 0;
        for (int i = 0; i < longer.length() && at < shorter.length(); i++) {
            if (longer.charAt(i) == shorter.charAt(at)) {
                at++;
            }
        }
        return at == shorter.length();
    }
}
