package io.sqlagent.knowledge.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

import io.sqlagent.sql.ColumnPolicy;
import io.sqlagent.sql.SchemaIntrospector;
import io.sqlagent.sql.TablePolicy;
import io.sqlagent.workspace.vector.Embeddings;

/**
 * One immutable snapshot of a source's searchable schema, held in memory: a Lucene index (BM25) over each
 * table's name, column names and comments, and optionally one all-MiniLM-L6-v2 vector per table. A search
 * ranks the tables by words and by meaning and fuses the rankings, with the tables the knowledge base
 * points at, by reciprocal rank fusion (each list adds {@code 1 / (60 + rank)}); the fused score is scaled
 * to 0–1, 1 meaning first in every list. Vectors are compared by exact cosine similarity: a few thousand
 * 384-dimension vectors take well under a millisecond, and an approximate (HNSW) search would only lose
 * recall at this size.
 */
public final class SchemaIndex {

    /** The constant of reciprocal rank fusion, as in Cormack et al. (2009) and Elasticsearch's default. */
    static final int RRF_K = 60;
    /** The factor a derived table's score is multiplied by (see {@link #search}). */
    private static final double DERIVED = 0.5;
    /**
     * Words (after {@link SchemaText#words}) that mark a table as a copy or derivative of the table whose name it
     * extends, as warehouse naming conventions use them; a version ({@code v2}) or a year ({@code 2023}) does too.
     */
    private static final Set<String> COPY_MARKERS = Set.of("history", "hist", "archive", "arch", "staging", "stage", "stg",
            "snapshot", "snap", "backup", "bak", "bkp", "tmp", "temp", "old", "audit", "copy", "summary", "report", "error",
            "load", "raw", "legacy", "deprecat", "daily", "weekly", "monthly", "quarterly", "yearly", "aggregate", "agg");

    /** Cosine similarity above which a table whose name extends another's is taken for a copy of it. */
    private static final double COPY_SIMILARITY = 0.85;
    /** What the join path counts for beside a ranking of its own: a hint, not evidence. */
    private static final double JOIN_WEIGHT = 0.5;
    /** The best tables whose references rank as the join path. */
    private static final int JOIN_FROM = 3;
    /** Candidates each ranking contributes before fusion. */
    private static final int CANDIDATES = 50;

    private static final String NAME = "name";
    private static final String COLUMNS = "columns";
    private static final String TEXT = "text";
    private static final String POSITION = "position";
    private static final Map<String, Float> BOOSTS = Map.of(NAME, 3f, COLUMNS, 1f, TEXT, 1f);

    /**
     * A table as the index holds it.
     *
     * @param table the schema-qualified name
     * @param summary the one-line summary shown in search results and the paged listing
     * @param name the words of its name
     * @param columns the words of its (visible) column names
     * @param text its comment, its columns' comments and the tables it references, as words
     * @param embedded the text its vector is made from
     * @param references the (visible) tables its foreign keys point at, schema-qualified
     */
    public record Entry(String table, String summary, String name, String columns, String text, String embedded,
            List<String> references) {
    }

    /** A table found, best first. */
    public record Hit(String table, String summary, double score) {
    }

    private final List<Entry> entries;
    private final IndexSearcher searcher;
    private final float[][] vectors;
    private final Map<String, List<Integer>> byName;
    private final List<Set<String>> nameWords;
    private final long builtAt;

    private SchemaIndex(List<Entry> entries, IndexSearcher searcher, float[][] vectors, long builtAt) {
        this.entries = entries;
        this.searcher = searcher;
        this.vectors = vectors;
        this.builtAt = builtAt;
        this.byName = new HashMap<>();
        this.nameWords = entries.stream().map(entry -> Set.copyOf(List.of(entry.name().split(" ")))).toList();
        for (int i = 0; i < entries.size(); i++) {
            String qualified = entries.get(i).table().toLowerCase(Locale.ROOT);
            byName.computeIfAbsent(qualified, key -> new ArrayList<>()).add(i);
            String bare = qualified.substring(qualified.indexOf('.') + 1);
            if (!bare.equals(qualified)) {
                byName.computeIfAbsent(bare, key -> new ArrayList<>()).add(i);
            }
        }
    }

    /** Characters of a table's text that are embedded; the model reads about 256 word pieces at most. */
    private static final int EMBEDDED_CHARS = 600;
    private static final int SUMMARY_CHARS = 110;

    /**
     * The word index of the tables of {@code catalog} that {@code tables} permits, without the columns {@code columns}
     * hides (nor their comments), and without references to tables the policy hides: nothing hidden is indexed, so
     * nothing hidden can be found or shown. At most {@code maxTables} tables, in catalog order.
     */
    public static SchemaIndex build(List<SchemaIntrospector.CatalogTable> catalog, TablePolicy tables, ColumnPolicy columns,
            int maxTables) {
        List<Entry> entries = new ArrayList<>();
        for (SchemaIntrospector.CatalogTable table : catalog) {
            SchemaIntrospector.Relation relation = table.relation();
            String qualified = relation.schema() + "." + relation.name();
            if (!tables.permits(qualified)) {
                continue;
            }
            if (entries.size() == maxTables) {
                break;
            }
            Set<String> hidden = columns.hidden(List.of(qualified),
                    table.columns().stream().map(SchemaIntrospector.CatalogColumn::name).toList());
            List<SchemaIntrospector.CatalogColumn> shown = table.columns().stream()
                    .filter(column -> !hidden.contains(column.name())).toList();
            List<String> references = table.references().stream().filter(tables::permits).toList();
            entries.add(entry(qualified, relation, shown, references));
        }
        return lexical(entries);
    }

    /** The one-line summary of a table comment; empty without one. */
    public static String summary(String description) {
        return description == null ? "" : SchemaText.cut(description.strip().replaceAll("\\s+", " "), SUMMARY_CHARS);
    }

    private static Entry entry(String qualified, SchemaIntrospector.Relation relation,
            List<SchemaIntrospector.CatalogColumn> columns, List<String> references) {
        String description = relation.description() == null ? "" : relation.description().strip();
        List<String> columnNames = columns.stream().map(SchemaIntrospector.CatalogColumn::name).toList();
        StringBuilder text = new StringBuilder(description);
        columns.stream().map(SchemaIntrospector.CatalogColumn::description).filter(comment -> !comment.isBlank())
                .forEach(comment -> text.append(' ').append(comment));
        references.forEach(reference -> text.append(' ').append(reference));
        String summary = description.isEmpty()
                ? SchemaText.cut("Columns: " + String.join(", ", columnNames), SUMMARY_CHARS)
                : summary(description);
        String embedded = SchemaText.cut(String.join(" ", SchemaText.words(relation.schema() + " " + relation.name()))
                + (description.isEmpty() ? "" : ": " + description) + ". Columns: "
                + String.join(", ", columnNames.stream().map(name -> String.join(" ", SchemaText.words(name))).toList()),
                EMBEDDED_CHARS);
        return new Entry(qualified, summary, SchemaText.terms(relation.schema() + " " + relation.name()),
                SchemaText.terms(String.join(" ", columnNames)), SchemaText.terms(text.toString()), embedded,
                List.copyOf(references));
    }

    /** This index with every table embedded by {@code embeddings}; blocking, seconds for thousands of tables. */
    public SchemaIndex embedded(Embeddings embeddings) {
        List<float[]> all = new ArrayList<>(entries.size());
        int batch = 64;
        for (int from = 0; from < entries.size(); from += batch) {
            all.addAll(embeddings.embedAll(entries.subList(from, Math.min(entries.size(), from + batch)).stream()
                    .map(Entry::embedded).toList()));
        }
        return withVectors(all.toArray(float[][]::new));
    }

    /** The lexical index of {@code entries}, without vectors. */
    static SchemaIndex lexical(List<Entry> entries) {
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
            for (int i = 0; i < entries.size(); i++) {
                Entry entry = entries.get(i);
                Document document = new Document();
                document.add(new StoredField(POSITION, i));
                document.add(new TextField(NAME, entry.name(), Field.Store.NO));
                document.add(new TextField(COLUMNS, entry.columns(), Field.Store.NO));
                document.add(new TextField(TEXT, entry.text(), Field.Store.NO));
                writer.addDocument(document);
            }
            writer.commit();
            // The reader lives as long as this snapshot; it holds only heap memory, released with it.
            return new SchemaIndex(List.copyOf(entries), new IndexSearcher(DirectoryReader.open(directory)), null,
                    System.currentTimeMillis());
        } catch (IOException e) {
            throw new UncheckedIOException("The schema index could not be built in memory", e);
        }
    }

    /** This index with one vector per entry, in order, so searches rank by meaning too. */
    SchemaIndex withVectors(float[][] vectors) {
        if (vectors.length != entries.size()) {
            throw new IllegalArgumentException(vectors.length + " vectors for " + entries.size() + " tables");
        }
        float[][] normalised = new float[vectors.length][];
        for (int i = 0; i < vectors.length; i++) {
            normalised[i] = normalised(vectors[i]);
        }
        return new SchemaIndex(entries, searcher, normalised, builtAt);
    }

    public List<Entry> entries() {
        return entries;
    }

    public boolean semantic() {
        return vectors != null;
    }

    long builtAt() {
        return builtAt;
    }

    /**
     * The best {@code limit} tables for a question: by its words (BM25), by meaning when this index has vectors and
     * {@code queryVector} is given, and by {@code knowledgeTables} (tables the knowledge base's hits name, best first).
     */
    public List<Hit> search(String query, float[] queryVector, List<String> knowledgeTables, int limit) {
        List<List<Integer>> rankings = new ArrayList<>();
        rankings.add(lexical(query));
        if (vectors != null && queryVector != null) {
            rankings.add(nearest(normalised(queryVector)));
        }
        List<Integer> known = known(knowledgeTables);
        if (!known.isEmpty()) {
            rankings.add(known);
        }
        double[] fused = new double[entries.size()];
        Set<Integer> candidates = new LinkedHashSet<>();
        for (List<Integer> ranking : rankings) {
            for (int rank = 0; rank < ranking.size(); rank++) {
                fused[ranking.get(rank)] += 1.0 / (RRF_K + rank + 1);
                candidates.add(ranking.get(rank));
            }
        }
        List<Integer> ranked = new ArrayList<>(candidates);
        ranked.sort((a, b) -> fused[a] != fused[b] ? Double.compare(fused[b], fused[a]) : Integer.compare(a, b));
        // The tables the best few reference are likely joined in: they rank as a list of their own (the join path,
        // as in schema linking), so "sales per sales rep" brings the employees table with the commissions.
        List<Integer> joined = new ArrayList<>();
        for (int i : ranked.subList(0, Math.min(JOIN_FROM, ranked.size()))) {
            for (String reference : entries.get(i).references()) {
                for (int target : byName.getOrDefault(reference.toLowerCase(Locale.ROOT), List.of())) {
                    if (!joined.contains(target)) {
                        joined.add(target);
                    }
                }
            }
        }
        for (int rank = 0; rank < joined.size(); rank++) {
            fused[joined.get(rank)] += JOIN_WEIGHT / (RRF_K + rank + 1);
            if (!ranked.contains(joined.get(rank))) {
                ranked.add(joined.get(rank));
            }
        }
        // A table whose name extends another candidate's with a word warehouses mark copies with (orders_history,
        // orders_daily_snapshot beside orders), or whose vector is nearly the same, is a copy of it: demoted, so the
        // distinct tables a question needs come first rather than five variants of one. A child table (order_items)
        // is neither.
        double[] adjusted = fused.clone();
        for (int i : ranked) {
            Set<String> words = nameWords.get(i);
            for (int j : ranked) {
                Set<String> original = nameWords.get(j);
                if (original.size() < words.size() && words.containsAll(original) && (marksCopy(words, original)
                        || vectors != null && dot(vectors[i], vectors[j]) >= COPY_SIMILARITY)) {
                    adjusted[i] = fused[i] * DERIVED;
                    break;
                }
            }
        }
        // Scaled so that first place in every ranking a search could use scores 1.
        double best = (vectors != null && queryVector != null ? 2 : 1) * (1.0 / (RRF_K + 1));
        return ranked.stream()
                .sorted((a, b) -> adjusted[a] != adjusted[b] ? Double.compare(adjusted[b], adjusted[a]) : Integer.compare(a, b))
                .limit(limit)
                .map(i -> new Hit(entries.get(i).table(), entries.get(i).summary(),
                        Math.round(Math.min(1, adjusted[i] / best) * 1000) / 1000.0))
                .toList();
    }

    private List<Integer> lexical(String query) {
        Set<String> words = new LinkedHashSet<>(SchemaText.words(query));
        if (words.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        for (String word : words.stream().limit(32).toList()) {
            BOOSTS.forEach((field, boost) -> any.add(new BoostQuery(new TermQuery(new Term(field, word)), boost),
                    BooleanClause.Occur.SHOULD));
        }
        try {
            ScoreDoc[] found = searcher.search(any.build(), CANDIDATES).scoreDocs;
            List<Integer> ranking = new ArrayList<>(found.length);
            for (ScoreDoc doc : found) {
                ranking.add(searcher.storedFields().document(doc.doc).getField(POSITION).numericValue().intValue());
            }
            return ranking;
        } catch (IOException e) {
            throw new UncheckedIOException("The schema index could not be searched", e);
        }
    }

    private List<Integer> nearest(float[] query) {
        double[] similarity = new double[vectors.length];
        Integer[] order = new Integer[vectors.length];
        for (int i = 0; i < vectors.length; i++) {
            similarity[i] = dot(query, vectors[i]);
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(similarity[b], similarity[a]));
        return Arrays.asList(order).subList(0, Math.min(CANDIDATES, order.length));
    }

    /** Entries the knowledge base names, in the order named, each once. */
    private List<Integer> known(List<String> tables) {
        Set<Integer> found = new LinkedHashSet<>();
        for (String table : tables) {
            found.addAll(byName.getOrDefault(table.trim().toLowerCase(Locale.ROOT), List.of()));
        }
        return new ArrayList<>(found);
    }

    /** Whether the words {@code name} adds to {@code original} include one that marks a copy. */
    private static boolean marksCopy(Set<String> name, Set<String> original) {
        for (String word : name) {
            if (!original.contains(word) && (COPY_MARKERS.contains(word) || word.matches("v\\d+|\\d{4}"))) {
                return true;
            }
        }
        return false;
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    private static float[] normalised(float[] vector) {
        double norm = 0;
        for (float value : vector) {
            norm += value * value;
        }
        norm = Math.sqrt(norm);
        float[] unit = new float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            unit[i] = norm == 0 ? 0 : (float) (vector[i] / norm);
        }
        return unit;
    }
}
