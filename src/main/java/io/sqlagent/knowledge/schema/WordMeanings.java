package io.sqlagent.knowledge.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkus.logging.Log;
import io.sqlagent.workspace.vector.Embeddings;

/**
 * The words of the tables' names and columns as the embedding model places them, one vector per distinct word, so a
 * question's word that no name holds, abbreviates or derives from can still find the name words nearest to it in
 * meaning ({@code revenue} → {@code payment}, {@code stock} → {@code inventory}, {@code supplier} → {@code vendor}). The
 * model's neighbours of a single word are noisy, so only close ones count, and at less weight than a word the name
 * holds. No list of synonyms is kept: the same model and rule serve every schema. The values of each table's
 * low-cardinality columns have a vector too, so a question's word can name their kind ({@code genre} for a table of
 * "Action, Animation, Children, …").
 */
final class WordMeanings {

    /**
     * Least cosine similarity between a question's word and a name word for the name word to count. Single words sit
     * close together in the model's space (year and date 0.62, revenue and tax 0.69, stock and inventory 0.65, movie and
     * film 0.86). Measured on the three evaluation sets (docs/schema-search.md): 0.5 and 0.55 lost the abbreviated set
     * five and two questions, 0.6 and 0.65 lost none, and 0.65 found two more of Pagila's; 0.7 found none.
     */
    static final double MIN_SIMILARITY = 0.65;
    /** Name words each question word may reach, the nearest first (3 measured the same as 2). */
    static final int PER_WORD = 2;
    /** What a name word reached by meaning counts for, beside the word itself (0.3 and 0.8 measured the same). */
    static final float WEIGHT = 0.5f;
    /** Question words remembered with their vectors, so a repeated word is not embedded again (1.5 MB at most). */
    private static final int CACHED = 1_024;
    /** Longest question word looked up: longer ones are no word anyone asks with, and cost the model more. */
    static final int LONGEST = 40;
    /**
     * Question words looked up per search, the first in the question first. Each costs the model a run, so a caller
     * sending thirty made-up words would cost thirty; the questions of the three evaluation sets have at most five. No
     * more than {@code InProcessModel.ASKED_TEXTS}, so that the words run on the model's threads for questions.
     */
    static final int MOST_PER_QUESTION = 8;

    /**
     * Least cosine similarity between a question's word and the values of a table's low-cardinality columns for the
     * word to point at the table as a name of their kind (genre and "Action, Animation, Children, …" 0.50; movies 0.51;
     * every other word of the Pagila questions no name holds at most 0.33).
     */
    static final double KIND_SIMILARITY = 0.45;
    /** Values of a table embedded as the text of their kind, the first in the index's order. */
    static final int KIND_VALUES = 20;

    private final String[] words;
    private final float[][] vectors;
    /** The tables with column values (their index among the entries), and the vector of each one's values. */
    private final int[] kindTables;
    private final String[] kindTexts;
    private final float[][] kindVectors;
    /** Every word of the index: names, columns, comments. */
    private final Set<String> held;
    private final Embeddings embeddings;
    /** Question words embedded so far, for the tests of {@link #MOST_PER_QUESTION}. */
    private final AtomicLong embedded = new AtomicLong();
    /** The question words' vectors, kept from one build to the next: a word means the same whatever the schema. */
    private final Map<String, float[]> asked;

    private WordMeanings(String[] words, float[][] vectors, Kinds kinds, Set<String> held, Embeddings embeddings,
            Map<String, float[]> asked) {
        this.words = words;
        this.vectors = vectors;
        this.kindTables = kinds.tables();
        this.kindTexts = kinds.texts();
        this.kindVectors = kinds.vectors();
        this.held = held;
        this.embeddings = embeddings;
        this.asked = asked;
    }

    private static Map<String, float[]> askedWords() {
        return Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                return size() > CACHED;
            }
        });
    }

    /**
     * The vectors of the name and column words of {@code entries} (three letters or more) and of the words they run
     * together ({@link SchemaIndex.Entry#parts}), each embedded as the word it abbreviates when {@link Expansions} knows
     * one; the vectors {@code previous} holds are reused, those of its question words too.
     */
    static WordMeanings of(List<SchemaIndex.Entry> entries, Embeddings embeddings, WordMeanings previous) {
        Expansions expansions = Expansions.english();
        Set<String> vocabulary = new TreeSet<>();
        Set<String> held = new HashSet<>();
        for (SchemaIndex.Entry entry : entries) {
            for (String field : List.of(entry.name(), entry.columns(), entry.text())) {
                held.addAll(List.of(field.split(" ")));
            }
            // The words a name runs together too (inventory of productinventory), so that stock can reach them.
            for (String field : List.of(entry.name(), entry.columns(), entry.parts())) {
                for (String word : field.split(" ")) {
                    // A name word the model knows no word for (mkt unexpanded, an id) has a vector that means nothing.
                    if (word.length() >= 3 && word.chars().allMatch(Character::isLetter)
                            && expansions.isWord(expansions.expand(word))) {
                        vocabulary.add(word);
                    }
                }
            }
        }
        Map<String, float[]> known = new HashMap<>();
        if (previous != null) {
            for (int i = 0; i < previous.words.length; i++) {
                known.put(previous.words[i], previous.vectors[i]);
            }
        }
        String[] words = vocabulary.toArray(String[]::new);
        SchemaIndex.embedMissing(List.of(words), known, expansions::expand, embeddings);
        float[][] vectors = Arrays.stream(words).map(known::get).toArray(float[][]::new);
        return new WordMeanings(words, vectors, kinds(entries, embeddings, previous), held, embeddings,
                previous == null ? askedWords() : previous.asked);
    }

    private record Kinds(int[] tables, String[] texts, float[][] vectors) {
    }

    /** The vectors of the tables' column values, each table's first {@link #KIND_VALUES} as one text. */
    private static Kinds kinds(List<SchemaIndex.Entry> entries, Embeddings embeddings, WordMeanings previous) {
        Map<String, float[]> known = new HashMap<>();
        if (previous != null) {
            for (int i = 0; i < previous.kindTexts.length; i++) {
                known.put(previous.kindTexts[i], previous.kindVectors[i]);
            }
        }
        List<Integer> tables = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            List<String> values = entries.get(i).values();
            if (!values.isEmpty()) {
                tables.add(i);
                texts.add(String.join(", ", values.subList(0, Math.min(KIND_VALUES, values.size()))));
            }
        }
        // A copy's values are usually its original's: each distinct text is embedded once.
        SchemaIndex.embedMissing(texts, known, text -> text, embeddings);
        float[][] vectors = texts.stream().map(known::get).toArray(float[][]::new);
        return new Kinds(tables.stream().mapToInt(Integer::intValue).toArray(), texts.toArray(String[]::new), vectors);
    }

    /**
     * The tables whose column values are of the kind one of {@code questionWords} names (genre for a table of
     * "Action, Animation, Children, …"), the nearest first: only words {@link #nearest} looked up count.
     */
    List<Integer> kinds(List<String> questionWords) {
        double[] best = new double[kindTables.length];
        for (String word : questionWords.stream().distinct().limit(MOST_PER_QUESTION).toList()) {
            float[] vector = asked.get(word);
            for (int i = 0; vector != null && i < kindTables.length; i++) {
                double similarity = SchemaIndex.dot(vector, kindVectors[i]);
                if (similarity >= KIND_SIMILARITY) {
                    best[i] = Math.max(best[i], similarity);
                }
            }
        }
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < best.length; i++) {
            if (best[i] > 0) {
                found.add(i);
            }
        }
        found.sort((a, b) -> Double.compare(best[b], best[a]));
        return found.stream().map(i -> kindTables[i]).toList();
    }

    int size() {
        return words.length;
    }

    /** Whether {@code word} is a word of a table's name, columns or comments: then the word itself is searched. */
    boolean holds(String word) {
        return held.contains(word);
    }

    /** Question words this index embedded (a word an earlier build of it embedded is not embedded again). */
    long embedded() {
        return embedded.get();
    }

    /**
     * The name words nearest in meaning to each of the first {@link #MOST_PER_QUESTION} of {@code questionWords}, by
     * question word (only those with a name word near enough), nearest first.
     */
    Map<String, List<String>> nearest(List<String> questionWords) {
        List<String> looked = questionWords.stream().distinct().limit(MOST_PER_QUESTION).toList();
        List<String> unknown = new ArrayList<>();
        for (String word : looked) {
            if (!asked.containsKey(word)) {
                unknown.add(word);
            }
        }
        if (!unknown.isEmpty()) {
            try {
                embedded.addAndGet(unknown.size());
                List<float[]> vectors = embeddings.embedAll(unknown);
                for (int j = 0; j < unknown.size(); j++) {
                    asked.put(unknown.get(j), SchemaIndex.normalised(vectors.get(j)));
                }
            } catch (RuntimeException e) {
                // The search goes on by the words the names hold and by meaning; these words only help.
                Log.debugf("Words %s could not be embedded: %s", unknown, e.getMessage());
                return Map.of();
            }
        }
        Map<String, List<String>> found = new LinkedHashMap<>();
        for (String word : looked) {
            float[] vector = asked.get(word);
            if (vector == null) {
                continue;
            }
            double[] best = new double[PER_WORD];
            int[] at = new int[PER_WORD];
            Arrays.fill(at, -1);
            for (int i = 0; i < words.length; i++) {
                double similarity = SchemaIndex.dot(vector, vectors[i]);
                if (similarity < MIN_SIMILARITY || words[i].equals(word)) {
                    continue;
                }
                for (int k = 0; k < PER_WORD; k++) {
                    if (at[k] < 0 || similarity > best[k]) {
                        for (int m = PER_WORD - 1; m > k; m--) {
                            best[m] = best[m - 1];
                            at[m] = at[m - 1];
                        }
                        best[k] = similarity;
                        at[k] = i;
                        break;
                    }
                }
            }
            for (int k = 0; k < PER_WORD && at[k] >= 0; k++) {
                found.computeIfAbsent(word, key -> new ArrayList<>()).add(words[at[k]]);
            }
        }
        return found;
    }
}
