package io.sqlagent.knowledge.schema;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the foreign-key graph adds to a search's fused ranking ({@link SchemaRanking}): the tables the best few join
 * to, the bridges between them, and the table that names a subtype's rows. Each is lifted at most to just below the
 * tables it supports: the neighbourhood supports the best tables, it does not replace them.
 */
final class SchemaNeighbours {

    /** What the join path counts for beside a ranking of its own: a hint, not evidence. */
    private static final double JOIN_WEIGHT = 0.5;

    /**
     * The best tables whose foreign-key neighbours rank as the join path, and between which bridges are lifted. Measured
     * on the three evaluation sets (docs/schema-search.md): 4 found three more of Pagila's questions whole than 3 and
     * left the other two sets as they were; 5 cost the held-out generated set a question.
     */
    private static final int JOIN_FROM = 4;

    private final SchemaGraph graph;

    SchemaNeighbours(SchemaGraph graph) {
        this.graph = graph;
    }

    /**
     * Lifts into {@code fused} (and adds to {@code ranked} and {@code candidates}) the join path of the best few of
     * {@code ranked}, the bridges between them and the tables that name their rows; {@code asked} are the question's
     * words, which say whether a copy stands for itself.
     */
    void lift(List<Integer> ranked, double[] fused, Set<Integer> candidates, Set<String> asked) {
        // A table joined in rises at most to just below the table it is joined to: the neighbourhood supports the
        // best tables, it does not replace them.
        Map<Integer, Integer> joined = joinPath(best(ranked, fused), asked);
        double[] seeds = fused.clone();
        int rank = 0;
        for (Map.Entry<Integer, Integer> join : joined.entrySet()) {
            int table = join.getKey();
            fused[table] = Math.max(fused[table],
                    Math.min(fused[table] + JOIN_WEIGHT / (SchemaRanking.RRF_K + ++rank), seeds[join.getValue()] * (1 - 1e-6)));
            if (candidates.add(table)) {
                ranked.add(table);
            }
        }
        bridges(ranked, fused, candidates);
        namers(ranked, fused, candidates);
    }

    /**
     * Lifts the bridges between the best few tables: a table joined through foreign keys (either way) to two of them
     * connects them ({@code film_category} between films and categories, {@code inventory} between films and rentals),
     * so a question about both needs it. It rises to just below the lower of the tables it joins. The two best tables,
     * when nothing that short joins them, are linked by the only chain of two tables between them, if there is one
     * (orders and their lines between stores and products: "which store sold the most?"; docs/schema-search.md).
     */
    private void bridges(List<Integer> ranked, double[] fused, Set<Integer> candidates) {
        List<Integer> seeds = best(ranked, fused);
        Map<Integer, Integer> count = new HashMap<>();
        Map<Integer, Integer> lowestSeed = new HashMap<>();
        for (int seed : seeds) {
            for (int table : graph.neighbours(seed)) {
                if (!seeds.contains(table)) {
                    count.merge(table, 1, Integer::sum);
                    lowestSeed.put(table, seed);
                }
            }
        }
        double[] seedScores = fused.clone();
        if (seeds.size() >= 2) {
            for (int table : graph.onlyChainBetween(seeds.get(0), seeds.get(1))) {
                count.put(table, 2);
                lowestSeed.put(table, seeds.get(1));
            }
        }
        count.forEach((table, n) -> {
            if (n >= 2) {
                fused[table] = Math.max(fused[table], seedScores[lowestSeed.get(table)] * (1 - 1e-6));
                if (candidates.add(table)) {
                    ranked.add(table);
                }
            }
        });
    }

    /**
     * Lifts the table that names the rows of one of the best few, when they are a subtype's ({@link SchemaGraph#namedBy}:
     * "top 5 salespeople" needs the persons the sales people are) to just below the last of them. Not above it: a
     * question about sales ranks the sales people first often enough without asking who they are.
     */
    private void namers(List<Integer> ranked, double[] fused, Set<Integer> candidates) {
        List<Integer> seeds = best(ranked, fused);
        double below = seeds.isEmpty() ? 0 : fused[seeds.get(seeds.size() - 1)] * (1 - 1e-6);
        for (int seed : seeds) {
            int namer = graph.namedBy(seed);
            if (namer >= 0) {
                fused[namer] = Math.max(fused[namer], below);
                if (candidates.add(namer)) {
                    ranked.add(namer);
                }
            }
        }
    }

    /** The best {@link #JOIN_FROM} of {@code ranked}, which is sorted by {@code fused} first. */
    private static List<Integer> best(List<Integer> ranked, double[] fused) {
        ranked.sort(SchemaRanking.byScore(fused));
        return List.copyOf(ranked.subList(0, Math.min(JOIN_FROM, ranked.size())));
    }

    /**
     * The join path, as in schema linking: the tables the best few candidates ({@code seeds}) reference through foreign
     * keys (a question about commissions per sales rep needs the employees the commissions point at), each with the
     * table it is joined to, copies standing for their original. Tables referencing the best ones are left out: a central table
     * such as products is referenced by dozens, and lifting them all buries the tables the words and meaning found.
     */
    private Map<Integer, Integer> joinPath(List<Integer> seeds, Set<String> asked) {
        Map<Integer, Integer> joined = new LinkedHashMap<>();
        for (int seed : seeds) {
            for (int target : graph.references(seed)) {
                joined.putIfAbsent(graph.representative(target, asked), seed);
            }
        }
        seeds.forEach(joined::remove);
        return joined;
    }

}
