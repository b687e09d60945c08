package io.sqlagent.knowledge.schema;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkus.logging.Log;

/**
 * The English words that abbreviated name words stand for ({@code vndr} → vendor, {@code cmpgn} → campaign,
 * {@code shpmt} → shipment), so that the embedding model, which knows words and not a team's abbreviations, reads
 * "vendor master" where the schema says {@code vndr_mstr} and can relate it to a question about suppliers. The words
 * come from a general vocabulary, not a list fitted to any schema: the WordPiece vocabulary the embedding model's
 * tokenizer ships with ({@code bert-vocabulary-en.txt} of langchain4j-embeddings), whose whole words are roughly in
 * order of frequency.
 *
 * <p>
 * A name word that is a word of the vocabulary is left as it is. Otherwise a vocabulary word starting with the same
 * letter is a candidate when the name word is its prefix (four letters or more: {@code cust} is three, and three
 * letters begin too many words), or, for a name word with no vowel after its first letter (a consonant skeleton such
 * as {@code vndr}), when the name word's letters appear in it in order; a skeleton's candidate costs one per consonant
 * it skips. Rarer words cost more (half a point per halving of frequency below the 2,000 most common). The cheapest
 * candidate is the expansion only when the next costs half a point more: an abbreviation several words fit equally
 * ({@code hdr}: header, hydro) is not guessed, and neither is one only a rare or distant word fits (cost above 2).
 */
final class Expansions {

    /** The vocabulary file of langchain4j-embeddings: the BERT (uncased) WordPiece vocabulary. */
    private static final String VOCABULARY = "bert-vocabulary-en.txt";
    /** Ranks below this count as equally common: the vocabulary's order is only roughly by frequency. */
    private static final int COMMON = 2000;
    /**
     * The most a chosen candidate may cost: above it the only words that fit are rare or far (naples for {@code nps},
     * ursula for {@code url}), and the name word is better left as it is.
     */
    private static final double MOST_COST = 2.0;
    /** What a candidate must cost less than the next for the name word to be expanded. */
    private static final double MARGIN = 0.5;
    private static final int SHORTEST = 3;
    private static final int SHORTEST_PREFIX = 4;
    /** The shortest name word tried as words run together: two words of three letters. */
    private static final int SHORTEST_COMPOUND = 6;
    /** The longest word looked for inside a name word. */
    private static final int LONGEST_PART = 20;
    /**
     * The two-letter words names are made of ({@code businessentityid}, {@code billofmaterials}): the vocabulary's words
     * of two letters are mostly not words, so only these count.
     */
    private static final Set<String> TWO_LETTERS = Set.of("id", "of", "by", "to", "on", "in", "at", "no", "up");
    private static final int CACHED = 20_000;
    private static final String VOWELS = "aeiou";

    /** The vocabulary's words and their rank; empty when the file is not on the class path. */
    private static final class Holder {
        static final Expansions INSTANCE = load();
    }

    private record Candidate(String word, String collapsed, int rank) {
    }

    private final Map<String, Integer> ranks;
    private final Map<Character, List<Candidate>> byInitial = new HashMap<>();
    private final Map<String, Optional<String>> cache = new ConcurrentHashMap<>();

    private Expansions(Map<String, Integer> ranks) {
        this.ranks = ranks;
        ranks.forEach((word, rank) -> {
            if (!inflected(word)) {
                byInitial.computeIfAbsent(word.charAt(0), key -> new ArrayList<>())
                        .add(new Candidate(word, collapsed(word), rank));
            }
        });
    }

    /** The shared vocabulary, read once. */
    static Expansions english() {
        return Holder.INSTANCE;
    }

    /** For tests: expansions from {@code words}, the most common first. */
    static Expansions of(List<String> words) {
        Map<String, Integer> ranks = new HashMap<>();
        for (int i = 0; i < words.size(); i++) {
            ranks.putIfAbsent(words.get(i), COMMON + i);
        }
        return new Expansions(ranks);
    }

    private static Expansions load() {
        Map<String, Integer> ranks = new HashMap<>();
        try (InputStream in = Expansions.class.getClassLoader().getResourceAsStream(VOCABULARY)) {
            if (in == null) {
                Log.warnf("No %s on the class path: abbreviated schema names are embedded as they are", VOCABULARY);
                return new Expansions(ranks);
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int rank = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine(), rank++) {
                if (line.length() >= SHORTEST && line.chars().allMatch(c -> c >= 'a' && c <= 'z')) {
                    ranks.putIfAbsent(line, rank);
                }
            }
        } catch (IOException e) {
            Log.warnf(e, "%s could not be read: abbreviated schema names are embedded as they are", VOCABULARY);
        }
        return new Expansions(ranks);
    }

    /** Whether {@code word} is a whole word of the vocabulary. */
    boolean isWord(String word) {
        return ranks.containsKey(word);
    }

    /**
     * The words {@code nameWord} (lower-case) runs together ({@code salesorderheader} → sales, order, header;
     * {@code businessentityid} → business, entity, id), as names ported from {@code SalesOrderHeader} without quotes
     * are written; {@code nameWord} alone when it is a word itself, shorter than {@link #SHORTEST_COMPOUND} or not made
     * wholly of words. The fewest words win, then the commoner; each of three letters or more from the vocabulary, or one
     * of the few two-letter words names are made of ({@link #TWO_LETTERS}). A single letter before them, as views are
     * marked ({@code vsalesperson}), is left out.
     */
    List<String> parts(String nameWord) {
        int n = nameWord.length();
        if (n < SHORTEST_COMPOUND || ranks.containsKey(nameWord) || !nameWord.chars().allMatch(c -> c >= 'a' && c <= 'z')) {
            return List.of(nameWord);
        }
        // pieces[i], cost[i]: the best split of the first i letters; from[i]: where its last word starts
        int[] pieces = new int[n + 1];
        double[] cost = new double[n + 1];
        int[] from = new int[n + 1];
        Arrays.fill(pieces, Integer.MAX_VALUE);
        pieces[0] = 0;
        for (int end = 1; end <= n; end++) {
            for (int start = Math.max(0, end - LONGEST_PART); start <= end - 1; start++) {
                if (pieces[start] == Integer.MAX_VALUE) {
                    continue;
                }
                String part = nameWord.substring(start, end);
                double partCost;
                if (part.length() == 1) {
                    // A letter before the words marks a kind of relation (vsalesperson, a view): dropped below.
                    if (start != 0) {
                        continue;
                    }
                    partCost = 0;
                } else if (part.length() == 2) {
                    if (!TWO_LETTERS.contains(part)) {
                        continue;
                    }
                    partCost = 0;
                } else {
                    Integer rank = ranks.get(part);
                    if (rank == null) {
                        continue;
                    }
                    partCost = Math.log(Math.max(rank, COMMON) / (double) COMMON);
                }
                int count = pieces[start] + 1;
                double total = cost[start] + partCost;
                if (count < pieces[end] || count == pieces[end] && total < cost[end]) {
                    pieces[end] = count;
                    cost[end] = total;
                    from[end] = start;
                }
            }
        }
        if (pieces[n] == Integer.MAX_VALUE) {
            return List.of(nameWord);
        }
        List<String> parts = new ArrayList<>(pieces[n]);
        for (int end = n; end > 0; end = from[end]) {
            if (end - from[end] > 1) {
                parts.add(0, nameWord.substring(from[end], end));
            }
        }
        return parts.size() > 1 ? parts : List.of(nameWord);
    }

    /** The word {@code nameWord} (lower-case) abbreviates, or {@code nameWord} itself when it is a word or unclear. */
    String expand(String nameWord) {
        if (nameWord.length() < SHORTEST || ranks.containsKey(nameWord)
                || !nameWord.chars().allMatch(c -> c >= 'a' && c <= 'z')) {
            return nameWord;
        }
        Optional<String> known = cache.get(nameWord);
        if (known == null) {
            known = Optional.ofNullable(best(nameWord));
            if (cache.size() < CACHED) {
                cache.put(nameWord, known);
            }
        }
        return known.orElse(nameWord);
    }

    private String best(String abbreviation) {
        boolean skeleton = abbreviation.substring(1).chars().noneMatch(c -> VOWELS.indexOf(c) >= 0);
        String best = null;
        double bestCost = Double.MAX_VALUE;
        double second = Double.MAX_VALUE;
        for (Candidate candidate : byInitial.getOrDefault(abbreviation.charAt(0), List.of())) {
            if (candidate.word().length() <= abbreviation.length()) {
                continue;
            }
            int skipped;
            if (abbreviation.length() >= SHORTEST_PREFIX && candidate.word().startsWith(abbreviation)) {
                skipped = 0;
            } else if (skeleton) {
                skipped = skippedConsonants(abbreviation, candidate.collapsed());
                if (skipped < 0) {
                    continue;
                }
            } else {
                continue;
            }
            double cost = skipped + 0.5 * Math.log(Math.max(candidate.rank(), COMMON) / (double) COMMON) / Math.log(2);
            if (cost < bestCost) {
                second = bestCost;
                bestCost = cost;
                best = candidate.word();
            } else if (cost < second) {
                second = cost;
            }
        }
        return best != null && bestCost <= MOST_COST && bestCost + MARGIN <= second ? best : null;
    }

    /**
     * The fewest consonants of {@code word} skipped when {@code abbreviation}'s letters are found in it in order, from
     * its first letter (which they share) to its end; -1 when they are not in it in order.
     */
    static int skippedConsonants(String abbreviation, String word) {
        int n = abbreviation.length();
        int m = word.length();
        if (word.charAt(0) != abbreviation.charAt(0)) {
            return -1;
        }
        int none = Integer.MAX_VALUE;
        // cost[i][j]: the first i letters matched, the i-th at word[j - 1]
        int[][] cost = new int[n + 1][m + 1];
        for (int[] row : cost) {
            Arrays.fill(row, none);
        }
        cost[1][1] = 0;
        for (int i = 2; i <= n; i++) {
            for (int j = i; j <= m; j++) {
                if (word.charAt(j - 1) != abbreviation.charAt(i - 1)) {
                    continue;
                }
                int skipped = 0;
                for (int k = j - 1; k >= 1; k--) {
                    if (cost[i - 1][k] != none) {
                        cost[i][j] = Math.min(cost[i][j], cost[i - 1][k] + skipped);
                    }
                    if (consonant(word.charAt(k - 1))) {
                        skipped++;
                    }
                }
            }
        }
        int best = none;
        for (int j = n; j <= m; j++) {
            if (cost[n][j] != none) {
                int tail = 0;
                for (int k = j; k < m; k++) {
                    tail += consonant(word.charAt(k)) ? 1 : 0;
                }
                best = Math.min(best, cost[n][j] + tail);
            }
        }
        return best == none ? -1 : best;
    }

    private static boolean consonant(char c) {
        return VOWELS.indexOf(c) < 0 && c != 'y';
    }

    /** {@code word} with doubled consonants written once ({@code comment} → {@code coment}): abbreviations drop them. */
    private static String collapsed(String word) {
        StringBuilder out = new StringBuilder(word.length());
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (i == 0 || c != word.charAt(i - 1) || !consonant(c)) {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Whether {@code word} is a plural, past, gerund or adverb of another vocabulary word: the base form is chosen. */
    private boolean inflected(String word) {
        int n = word.length();
        return word.endsWith("s") && ranks.containsKey(word.substring(0, n - 1))
                || word.endsWith("ed")
                        && (ranks.containsKey(word.substring(0, n - 2)) || ranks.containsKey(word.substring(0, n - 1)))
                || word.endsWith("ing") && n > 5
                        && (ranks.containsKey(word.substring(0, n - 3)) || ranks.containsKey(word.substring(0, n - 3) + "e"))
                || word.endsWith("ly") && ranks.containsKey(word.substring(0, n - 2));
    }
}
