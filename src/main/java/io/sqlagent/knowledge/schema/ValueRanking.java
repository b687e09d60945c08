package io.sqlagent.knowledge.schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ranking by column values: a table ranks by the values of its low-cardinality text columns (see
 * {@link ColumnValues}) that a question names, each value weighted by how few tables hold it, so {@code French} points
 * at the languages table and a value every table holds ({@code active}) at none in particular. A value is named when
 * every word of it is a word of the question ({@code New Zealand} needs both); values with no word of two letters or
 * more ({@code R}, {@code 2}) are never matched, as they would match anything.
 */
final class ValueRanking {

    /** One value of one table, as words. */
    private record Value(int table, List<String> words) {
    }

    /** Values by each of their words. */
    private final Map<String, List<Value>> byWord = new HashMap<>();
    /** Tables holding a value, by the value's words joined. */
    private final Map<String, Set<Integer>> holders = new HashMap<>();
    private final int tables;

    ValueRanking(List<SchemaIndex.Entry> entries) {
        tables = entries.size();
        for (int i = 0; i < entries.size(); i++) {
            Set<String> seen = new HashSet<>();
            for (String value : entries.get(i).values()) {
                List<String> words = SchemaWords.words(value);
                if (words.stream().noneMatch(word -> word.length() >= 2 && word.chars().anyMatch(Character::isLetter))
                        || !seen.add(String.join(" ", words))) {
                    continue;
                }
                Value indexed = new Value(i, words);
                holders.computeIfAbsent(String.join(" ", words), key -> new HashSet<>()).add(i);
                for (String word : new HashSet<>(words)) {
                    byWord.computeIfAbsent(word, key -> new ArrayList<>()).add(indexed);
                }
            }
        }
    }

    boolean isEmpty() {
        return byWord.isEmpty();
    }

    /** The tables holding a value {@code asked} names, the best first. */
    List<Integer> rank(Set<String> asked) {
        Map<Integer, Double> scores = new HashMap<>();
        Set<Value> matched = new HashSet<>();
        for (String word : asked) {
            for (Value value : byWord.getOrDefault(word, List.of())) {
                if (asked.containsAll(value.words()) && matched.add(value)) {
                    int held = holders.get(String.join(" ", value.words())).size();
                    scores.merge(value.table(), Math.log(1 + (double) tables / held), Double::sum);
                }
            }
        }
        List<Integer> ranking = new ArrayList<>(scores.keySet());
        ranking.sort((a, b) -> !scores.get(a).equals(scores.get(b)) ? Double.compare(scores.get(b), scores.get(a))
                : Integer.compare(a, b));
        return ranking;
    }
}
