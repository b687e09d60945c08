package io.sqlagent.knowledge.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the schema index knows about how its tables relate, worked out once per snapshot: which table is a copy of
 * which (warehouses keep {@code orders_history}, {@code orders_staging}, {@code orders_backup_2023} beside
 * {@code orders}), and which tables each one's foreign keys reference.
 *
 * <p>
 * A table is a copy of another when its name has every word of the other's and the words it adds all mark copies
 * ({@code history}, {@code archive}, {@code staging}, {@code snapshot}, {@code backup}, {@code old}, {@code tmp}, a
 * version such as {@code v2} or a year such as {@code 2023}, …); of several such tables the one with the most words is
 * its original ({@code orders_history_archive} is a copy of {@code orders_history} if there is one, else of
 * {@code orders}). A child table such as {@code order_items} adds a word that marks no copy, so it is a table of its
 * own.
 */
final class SchemaGraph {

    /**
     * Words (after {@link SchemaWords#words}) that mark a table as a copy or derivative of the table whose name it
     * extends, as warehouse naming conventions use them.
     */
    private static final Set<String> COPY_MARKERS = Set
            .of("history", "hist", "archive", "arch", "staging", "stage", "stg", "snapshot", "snap", "backup", "bak", "bkp",
                    "tmp", "temp", "old", "audit", "copy", "summary", "report", "error", "load", "raw", "legacy",
                    "deprecated", "daily", "weekly", "monthly", "quarterly", "yearly", "aggregate", "agg", "clone", "dup",
                    "prev", "previous")
            .stream().map(SchemaWords::stem).collect(Collectors.toUnmodifiableSet());
    /** The word a column that names a table's rows holds ({@link #namedBy}). */
    private static final String NAME = SchemaWords.stem("name");
    /** Most words of a name whose subsets are tried as an original's name (more would grow too fast). */
    private static final int MAX_WORDS = 8;

    private final int[] original;
    private final List<Set<String>> marks;
    private final Map<String, List<Integer>> byName = new HashMap<>();
    private final List<List<Integer>> references;
    private final List<List<Integer>> referencedBy;
    private final List<List<Integer>> extended;
    private final int[] namedBy;

    SchemaGraph(List<SchemaIndex.Entry> entries) {
        int size = entries.size();
        List<Set<String>> words = entries.stream().map(entry -> Set.copyOf(List.of(entry.name().split(" ")))).toList();
        for (int i = 0; i < size; i++) {
            String qualified = entries.get(i).table().toLowerCase(Locale.ROOT);
            byName.computeIfAbsent(qualified, key -> new ArrayList<>()).add(i);
            String bare = qualified.substring(qualified.indexOf('.') + 1);
            if (!bare.equals(qualified)) {
                byName.computeIfAbsent(bare, key -> new ArrayList<>()).add(i);
            }
        }
        Map<Set<String>, Integer> byWords = new HashMap<>();
        for (int i = 0; i < size; i++) {
            byWords.putIfAbsent(words.get(i), i);
        }
        List<Set<String>> columnWords = entries.stream()
                .map(entry -> Set.copyOf(List.of(entry.columns().split(" ")))).toList();
        original = new int[size];
        marks = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            original[i] = originalOf(i, words, columnWords, byWords);
            Set<String> added = new HashSet<>(words.get(i));
            if (original[i] >= 0) {
                added.removeAll(words.get(original[i]));
            }
            // A version or a year alone does not ask for a copy: "orders 2023" means the orders of 2023.
            Set<String> named = added.stream().filter(word -> !isVersion(word)).collect(Collectors.toSet());
            marks.add(original[i] < 0 ? Set.of() : Set.copyOf(named.isEmpty() ? added : named));
        }
        references = new ArrayList<>(size);
        extended = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            references.add(positions(entries.get(i).references(), i));
            extended.add(positions(entries.get(i).extended(), i));
        }
        namedBy = new int[size];
        for (int i = 0; i < size; i++) {
            namedBy[i] = -1;
            if (!extended.get(i).isEmpty() && !namesRows(entries.get(i))) {
                namedBy[i] = supertypes(i).stream().filter(supertype -> namesRows(entries.get(supertype))).findFirst()
                        .orElse(-1);
            }
        }
        referencedBy = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            referencedBy.add(new ArrayList<>());
        }
        for (int i = 0; i < size; i++) {
            for (int target : references.get(i)) {
                referencedBy.get(target).add(i);
            }
        }
    }

    /** The tables whose foreign keys reference {@code table}. */
    List<Integer> referencedBy(int table) {
        return referencedBy.get(table);
    }

    /**
     * The table that table {@code i} is a copy of, the one with the longest name; -1 when none. Another table is its
     * original when {@code i}'s name has every word of the other's and adds only copy markers, or when it has every word
     * of the other's name and every word of the other's columns: a copy keeps its original's columns ({@code orders_x},
     * {@code ordersOld}), whereas a child table ({@code order_items}) has columns of its own, whatever the team calls its
     * copies.
     */
    private static int originalOf(int i, List<Set<String>> words, List<Set<String>> columns,
            Map<Set<String>, Integer> byWords) {
        List<String> name = words.get(i).stream().sorted().toList();
        if (name.size() < 2 || name.size() > MAX_WORDS) {
            return -1;
        }
        int best = -1;
        int bestSize = -1;
        // Every proper subset of the name's words may be an original's name.
        for (int subset = 1; subset < (1 << name.size()) - 1; subset++) {
            Set<String> rest = new HashSet<>();
            boolean onlyMarkers = true;
            for (int bit = 0; bit < name.size(); bit++) {
                if ((subset & 1 << bit) == 0) {
                    rest.add(name.get(bit));
                } else {
                    onlyMarkers &= marksCopy(name.get(bit));
                }
            }
            Integer found = byWords.get(rest);
            if (found != null && found != i && rest.size() > bestSize
                    && (onlyMarkers || columns.get(i).containsAll(columns.get(found)))) {
                best = found;
                bestSize = rest.size();
            }
        }
        return best;
    }

    private static boolean marksCopy(String word) {
        return COPY_MARKERS.contains(word) || isVersion(word);
    }

    private static boolean isVersion(String word) {
        return word.matches("v\\d+|(19|20)\\d\\d|\\d{6,8}");
    }

    /** The tables named {@code table} (schema-qualified, or bare in any schema), in index order. */
    List<Integer> named(String table) {
        return byName.getOrDefault(table.trim().toLowerCase(Locale.ROOT), List.of());
    }

    /** The table {@code table} is a copy of; -1 when it is none's. */
    int original(int table) {
        return original[table];
    }

    /**
     * The table a search shows in place of {@code table}: its original's (or the original's original), unless the
     * question asks for what makes it a copy ({@code asked} has the words its name adds, versions and years aside: "the
     * orders history", "the daily snapshot of orders", but not "monthly revenue" for a monthly summary).
     */
    int representative(int table, Set<String> asked) {
        int current = table;
        for (int steps = 0; steps < original.length && original[current] >= 0; steps++) {
            // A single letter ("product X") is a placeholder, not a request for the copy named orders_x.
            if (asked.containsAll(marks.get(current)) && marks.get(current).stream().anyMatch(word -> word.length() > 1)) {
                break;
            }
            current = original[current];
        }
        return current;
    }

    /** The tables {@code table}'s foreign keys reference. */
    List<Integer> references(int table) {
        return references.get(table);
    }

    /** The tables named by {@code tables}, each once, but table {@code self}. */
    private List<Integer> positions(List<String> tables, int self) {
        Set<Integer> found = new LinkedHashSet<>();
        tables.forEach(table -> found.addAll(named(table)));
        found.remove(self);
        return List.copyOf(found);
    }

    /**
     * The table that names {@code table}'s rows when it does not name them itself: the nearest of the tables it extends
     * ({@link #supertypes}) with a name column ({@code name}, {@code first_name}, {@code LastName}), as a sales person's
     * name is the person's, two tables up; -1 when none does, or {@code table} has a name column of its own.
     */
    int namedBy(int table) {
        return namedBy[table];
    }

    /** Whether {@code entry} has a column whose name holds the word name ({@code name}, {@code firstname}, …). */
    private static boolean namesRows(SchemaIndex.Entry entry) {
        return List.of(entry.columns().split(" ")).contains(NAME) || SchemaWords.parts(entry.columns()).contains(NAME);
    }

    /**
     * The tables {@code table} extends, and those they extend, nearest first: {@code salesperson}'s employees, then the
     * persons the employees are.
     */
    List<Integer> supertypes(int table) {
        Set<Integer> found = new LinkedHashSet<>();
        List<Integer> next = List.of(table);
        while (!next.isEmpty()) {
            List<Integer> further = new ArrayList<>();
            for (int current : next) {
                for (int supertype : extended.get(current)) {
                    if (supertype != table && found.add(supertype)) {
                        further.add(supertype);
                    }
                }
            }
            next = further;
        }
        return List.copyOf(found);
    }

    /** The tables joined to {@code table} by a foreign key, either way. */
    Set<Integer> neighbours(int table) {
        Set<Integer> around = new LinkedHashSet<>(references.get(table));
        around.addAll(referencedBy.get(table));
        around.remove(table);
        return around;
    }

    /**
     * The two tables between {@code a} and {@code b} when exactly one chain of two foreign keys' joins links them and
     * nothing shorter does ({@code a} ← orders → order lines → {@code b}); empty otherwise, as a question about both
     * cannot tell which of several chains it means.
     */
    List<Integer> onlyChainBetween(int a, int b) {
        Set<Integer> fromA = neighbours(a);
        Set<Integer> fromB = neighbours(b);
        if (fromA.contains(b) || fromA.stream().anyMatch(fromB::contains)) {
            return List.of();
        }
        List<Integer> chain = List.of();
        for (int first : fromA) {
            for (int second : neighbours(first)) {
                if (second != a && fromB.contains(second)) {
                    if (!chain.isEmpty()) {
                        return List.of();
                    }
                    chain = List.of(first, second);
                }
            }
        }
        return chain;
    }

    /** How many tables are copies of another. */
    long copies() {
        return Arrays.stream(original).filter(index -> index >= 0).count();
    }
}
