package io.sqlagent.knowledge.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;

import io.sqlagent.knowledge.schema.SchemaIndex.Entry;
import io.sqlagent.knowledge.schema.SchemaIndex.Hit;

/**
 * The ranking half of {@link SchemaIndex}: one search over one snapshot. Kept apart from the building of the
 * snapshot because it changes for other reasons (the weights are tuned on the evaluation sets, docs/schema-search.md),
 * while the snapshot's build follows the catalog and the embedding model.
 */
final class SchemaRanking {

    /**
     * The constant of reciprocal rank fusion. Cormack et al. (2009) and Elasticsearch use 60, which makes a ranking's
     * first places count little more than its tenth: a table the words rank first (an abbreviated name matching three of
     * the question's words) then lost to tables ranked tenth by words and fifth by meaning. Measured on the three
     * evaluation sets (docs/schema-search.md): 15 raised the abbreviated set by three points and left the others as
     * they were.
     */
    static final int RRF_K = 15;
    /** The factor a copy's score is its original's times, when it is listed after the distinct tables. */
    private static final double DERIVED = 0.5;
    /**
     * What the ranking by meaning counts for beside the ranking by words: the in-process model knows no team's
     * abbreviations ({@code vndr}, {@code pmt}), so on abbreviated names its ranking is the weaker one. Measured on the
     * three evaluation sets (docs/schema-search.md): 0.5 raised the abbreviated set by three points and Pagila's by
     * half a point, and cost the generated set under one. Its first place counts in full: the model's nearest table is a
     * clue as strong as the words' best, below it similarities crowd (AdventureWorks +1.2 points, docs/schema-search.md).
     */
    private static final double DENSE_WEIGHT = 0.5;
    /**
     * The factor a view's fused score is multiplied by ({@link #viewsFollowTheirTables}). Measured on the two sets with
     * views (docs/schema-search.md): 0.3 found one more question whole on each than 0.5, 0.1 the same as 0.3.
     */
    private static final double VIEW_FACTOR = 0.3;
    /**
     * Tables (families) the ranking by meaning contributes to the fusion: its first few only. Below them the model's
     * similarities are close together and say little, yet under rank fusion they still add up, so a table ranked low by
     * both words and meaning beat one the words ranked first. Measured on the three evaluation sets
     * (docs/schema-search.md): 10 raised the abbreviated set by 4.8 points and Pagila's by 0.4, and the held-out
     * generated set by 1.4; 5 and 20 did less on two of the three.
     */
    private static final int DENSE_CANDIDATES = 10;
    /** Candidates (families of copies) each ranking contributes before fusion. */
    private static final int CANDIDATES = 50;
    /**
     * Word hits read to find {@link #CANDIDATES} families: on a warehouse where each table has a dozen copies, the
     * first 50 hits may be four tables.
     */
    private static final int WORD_HITS = 400;
    /** Each field's weight; {@link SchemaIndex#PARTS} says why the words a name runs together count for half. */
    private static final Map<String, Float> BOOSTS = Map.of(SchemaIndex.NAME, 3f, SchemaIndex.COLUMNS, 1f, SchemaIndex.TEXT,
            1f, SchemaIndex.PARTS, 0.5f);

    private final List<Entry> entries;
    private final IndexSearcher searcher;
    private final float[][] vectors;
    private final SchemaGraph graph;
    private final SchemaNeighbours neighbours;
    private final Abbreviations abbreviations;
    private final ValueRanking values;
    private final WordMeanings meanings;

    SchemaRanking(List<Entry> entries, IndexSearcher searcher, float[][] vectors, SchemaGraph graph,
            Abbreviations abbreviations, ValueRanking values, WordMeanings meanings) {
        this.entries = entries;
        this.searcher = searcher;
        this.vectors = vectors;
        this.graph = graph;
        this.neighbours = new SchemaNeighbours(graph);
        this.abbreviations = abbreviations;
        this.values = values;
        this.meanings = meanings;
    }

    /**
     * The best {@code limit} tables for a question: by its words (BM25), by meaning when this index has vectors and
     * {@code queryVector} is given, and by {@code knowledgeTables} (tables the knowledge base's hits name, best first).
     */
    List<Hit> search(String query, float[] queryVector, List<String> knowledgeTables, int limit) {
        Set<String> asked = new HashSet<>(SchemaWords.words(query));
        Set<Integer> copies = new LinkedHashSet<>();
        List<List<Integer>> rankings = new ArrayList<>();
        List<String> unmatched = new ArrayList<>();
        rankings.add(families(lexical(query, unmatched), asked, copies));
        List<Integer> dense = null;
        if (vectors != null && queryVector != null) {
            dense = families(nearest(SchemaIndex.normalised(queryVector)), asked, copies);
            dense = dense.subList(0, Math.min(dense.size(), DENSE_CANDIDATES));
            rankings.add(dense);
        }
        // A value of a column the question names points at the column's table (French at the languages).
        if (!values.isEmpty()) {
            List<Integer> valued = families(values.rank(asked), asked, copies);
            if (!valued.isEmpty()) {
                rankings.add(valued);
            }
        }
        // A question's word no name holds may name the kind of a table's values (genre, for a table of Action, Comedy, …).
        if (meanings != null && !unmatched.isEmpty()) {
            List<Integer> kinds = families(meanings.kinds(unmatched), asked, copies);
            if (!kinds.isEmpty()) {
                rankings.add(kinds);
            }
        }
        // A copy the knowledge base names was used on purpose: it stands for itself.
        List<Integer> known = known(knowledgeTables);
        if (!known.isEmpty()) {
            rankings.add(known);
        }
        double[] fused = new double[entries.size()];
        Set<Integer> candidates = new LinkedHashSet<>();
        for (List<Integer> ranking : rankings) {
            double weight = ranking == dense ? DENSE_WEIGHT : 1;
            for (int rank = 0; rank < ranking.size(); rank++) {
                fused[ranking.get(rank)] += (rank == 0 ? 1 : weight) / (RRF_K + rank + 1);
                candidates.add(ranking.get(rank));
            }
        }
        viewsFollowTheirTables(candidates, asked, fused);
        List<Integer> ranked = new ArrayList<>(candidates);
        ranked.sort(byScore(fused));
        neighbours.lift(ranked, fused, candidates, asked);
        ranked.sort(byScore(fused));
        // Scaled so that first place in every ranking a search could use scores 1.
        double best = (dense != null ? 2 : 1) * (1.0 / (RRF_K + 1));
        List<Hit> hits = new ArrayList<>();
        for (int i : ranked.subList(0, Math.min(limit, ranked.size()))) {
            hits.add(hit(i, Math.min(1, fused[i] / best)));
        }
        // Copies come after the distinct tables, each below its original.
        for (int copy : copies) {
            if (hits.size() == limit) {
                break;
            }
            if (!candidates.contains(copy)) {
                double original = fused[graph.representative(copy, asked)] / best * DERIVED;
                hits.add(hit(copy, Math.min(original, hits.isEmpty() ? 1 : hits.get(hits.size() - 1).score())));
            }
        }
        return hits;
    }

    private Hit hit(int i, double score) {
        return new Hit(entries.get(i).table(), entries.get(i).summary(), Math.round(score * 1000) / 1000.0);
    }

    static Comparator<Integer> byScore(double[] scores) {
        return (a, b) -> scores[a] != scores[b] ? Double.compare(scores[b], scores[a]) : Integer.compare(a, b);
    }

    /**
     * A view derives from base tables as a copy does: it follows the base tables that hold its words of the question, and
     * before the join path is chosen, so it takes neither their place nor that of the base tables whose foreign keys make
     * the path ({@code customer_list} beside customer, address, city). A view holding a word of the question no base
     * table found holds ({@code total_sales} for "total sales by store") is what the question asks for: it stays.
     */
    private void viewsFollowTheirTables(Set<Integer> candidates, Set<String> asked, double[] fused) {
        if (candidates.stream().noneMatch(i -> entries.get(i).view())) {
            return;
        }
        Set<String> byTables = new HashSet<>();
        for (int i : candidates) {
            if (!entries.get(i).view()) {
                byTables.addAll(entries.get(i).held(asked));
            }
        }
        for (int i : candidates) {
            if (entries.get(i).view() && byTables.containsAll(entries.get(i).held(asked))) {
                fused[i] *= VIEW_FACTOR;
            }
        }
    }

    /**
     * {@code ranking} with each copy replaced by the table it stands for (its original, unless {@code asked} asks for
     * the copy), each table once, at its best place, cut to {@link #CANDIDATES}; the copies replaced go to
     * {@code copies}.
     */
    private List<Integer> families(List<Integer> ranking, Set<String> asked, Set<Integer> copies) {
        Set<Integer> family = new LinkedHashSet<>();
        for (int i : ranking) {
            int shown = graph.representative(i, asked);
            if (shown != i) {
                copies.add(i);
            }
            family.add(shown);
            if (family.size() == CANDIDATES) {
                break;
            }
        }
        return new ArrayList<>(family);
    }

    /**
     * The best word hits for {@code query}, best first. Each of the question's words counts once for a table, by the
     * best of its ways of matching it (the word in the name, a column or a comment, a derived name word, an
     * abbreviation), as Lucene's disjunction max and Elasticsearch's {@code best_fields} score: summed, a word a table
     * holds in several forms outweighed words the table did not hold at all ("refunded" as {@code ref}, {@code rfnd}
     * and refund in bank statement lines, against the refund, the amount and the month of a returns table). Measured
     * on the three evaluation sets (docs/schema-search.md): Pagila and the held-out generated set found one more
     * question each, the abbreviated set the same.
     */
    private List<Integer> lexical(String query, List<String> unmatched) {
        Set<String> words = new LinkedHashSet<>(SchemaWords.words(query));
        if (words.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        List<String> terms = words.stream().limit(32).toList();
        // Each word's ways of matching a table, the word itself in every field first.
        Map<String, List<Query>> ways = new LinkedHashMap<>();
        for (String word : terms) {
            List<Query> itself = ways.computeIfAbsent(word, key -> new ArrayList<>());
            BOOSTS.forEach((field, boost) -> itself.add(new BoostQuery(new TermQuery(new Term(field, word)), boost)));
        }
        // A name made of the initials of the question's words (po_hdr for purchase orders, sla_def for a service level
        // agreement) names them as the words would.
        // Two letters (po, gl) are a weaker clue than three: "gold loyalty" is no general ledger.
        for (String initialism : abbreviations.initialisms(query)) {
            should(any, List.of(initialism), initialism.length() == 2 ? Abbreviations.WEIGHT : 1f);
        }
        for (String word : terms) {
            // A name word made from the question's word by an English ending (rental for rented) matches it nearly as
            // the word itself does.
            List<String> derived = abbreviations.derived(word);
            nameWords(ways.get(word), derived, Abbreviations.DERIVED_WEIGHT);
            // Names abbreviated as teams abbreviate them (cust_ord_hdr for a customer order header) match the word they
            // shorten, at less weight than the word itself.
            List<String> shortened = abbreviations.of(word);
            nameWords(ways.get(word), shortened, Abbreviations.WEIGHT);
            if (meanings != null && derived.isEmpty() && shortened.isEmpty() && word.length() >= 3
                    && word.length() <= WordMeanings.LONGEST && !meanings.holds(word)) {
                unmatched.add(word);
            }
        }
        // A question's word no name holds, abbreviates or derives from reaches the name words nearest in meaning.
        if (!unmatched.isEmpty()) {
            meanings.nearest(unmatched).forEach((word, near) -> nameWords(ways.get(word), near, WordMeanings.WEIGHT));
        }
        // A past tense as written abbreviates too, before its ending was cut (rcvd for received, shpd for shipped).
        for (String token : SchemaWords.tokens(query).stream().limit(32).toList()) {
            String stem = SchemaWords.stem(token);
            if (token.endsWith("ed") && !stem.equals(token) && !SchemaWords.isStop(token)) {
                List<String> more = new ArrayList<>(abbreviations.of(token));
                more.removeAll(abbreviations.of(stem));
                nameWords(ways.computeIfAbsent(stem, key -> new ArrayList<>()), more, Abbreviations.WEIGHT);
            }
        }
        for (List<Query> word : ways.values()) {
            if (!word.isEmpty()) {
                any.add(new DisjunctionMaxQuery(word, 0), BooleanClause.Occur.SHOULD);
            }
        }
        try {
            ScoreDoc[] found = searcher.search(any.build(), WORD_HITS).scoreDocs;
            List<Integer> ranking = new ArrayList<>(found.length);
            for (ScoreDoc doc : found) {
                ranking.add(searcher.storedFields().document(doc.doc).getField(SchemaIndex.POSITION).numericValue().intValue());
            }
            return ranking;
        } catch (IOException e) {
            throw new UncheckedIOException("The schema index could not be searched", e);
        }
    }

    /** Adds each of {@code nameWords} as a way of matching a question's word, in names and columns, at {@code weight}. */
    private static void nameWords(List<Query> ways, List<String> nameWords, float weight) {
        for (String nameWord : nameWords) {
            for (String field : List.of(SchemaIndex.NAME, SchemaIndex.COLUMNS, SchemaIndex.PARTS)) {
                ways.add(new BoostQuery(new TermQuery(new Term(field, nameWord)), BOOSTS.get(field) * weight));
            }
        }
    }

    /** Adds each of {@code nameWords} as a word of a table's name or columns, at {@code weight} of the word itself. */
    private static void should(BooleanQuery.Builder any, List<String> nameWords, float weight) {
        List<Query> ways = new ArrayList<>();
        nameWords(ways, nameWords, weight);
        ways.forEach(way -> any.add(way, BooleanClause.Occur.SHOULD));
    }

    /** Every table, nearest to {@code query} first. */
    private List<Integer> nearest(float[] query) {
        double[] similarity = new double[vectors.length];
        Integer[] order = new Integer[vectors.length];
        for (int i = 0; i < vectors.length; i++) {
            similarity[i] = SchemaIndex.dot(query, vectors[i]);
            order[i] = i;
        }
        Arrays.sort(order, byScore(similarity));
        return Arrays.asList(order);
    }

    /** Entries the knowledge base names, in the order named, each once. */
    private List<Integer> known(List<String> tables) {
        Set<Integer> found = new LinkedHashSet<>();
        for (String table : tables) {
            found.addAll(graph.named(table));
        }
        return new ArrayList<>(found);
    }
}
