package io.sqlagent.knowledge.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteBuffersDirectory;

import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.schema.SchemaIntrospector;
import io.sqlagent.workspace.vector.Embeddings;

/**
 * One immutable snapshot of a source's searchable schema, held in memory: a Lucene index (BM25) over each
 * table's name, column names and comments, and optionally one all-MiniLM-L6-v2 vector per table. A search
 * ranks the tables by words, by meaning and by the column values a question names ({@link ValueRanking}) and fuses
 * the rankings, with the tables the knowledge base points at, by reciprocal rank fusion (each list adds
 * {@code 1 / (15 + rank)}); the fused score is scaled
 * to 0–1, 1 meaning first in every list. Each ranking counts a family of copies ({@code orders},
 * {@code orders_history}, {@code orders_staging}, see {@link SchemaGraph}) once, for the original, unless the
 * question asks for the copy; views follow the base tables that hold their words of the question; then the tables
 * joined to the best few through foreign keys, and the tables bridging two of them, rank higher. Vectors
 * are compared by exact cosine similarity: a few thousand 384-dimension vectors take well under a millisecond,
 * and an approximate (HNSW) search would only lose recall at this size. This class builds the snapshot;
 * {@link SchemaRanking} ranks a search over it.
 */
public final class SchemaIndex {

    /** MessageText the model embeds at once. */
    private static final int BATCH = 64;

    static final String NAME = "name";
    static final String COLUMNS = "columns";
    static final String TEXT = "text";
    /**
     * The words the table's and its columns' names run together ({@link SchemaWords#parts}: sale, order and header of
     * {@code salesorderheader}), at half a column word's weight, as each is in many names. Measured on the four
     * evaluation sets (docs/schema-search.md): a quarter and a half found AdventureWorks' tables best (76.4 → 78.1 %),
     * no other set moved; as words of the name itself, they lost AdventureWorks a point.
     */
    static final String PARTS = "parts";
    static final String POSITION = "position";

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
     * @param extended the (visible) tables of {@code references} it extends, its primary key theirs
     *        ({@link SchemaIntrospector.CatalogTable#extended})
     * @param view whether it is a view or materialized view
     * @param values the values of its visible low-cardinality text columns, from the planner's statistics
     * @param parts the words its own name and its column names run together ({@link SchemaWords#parts}), as words
     */
    public record Entry(String table, String summary, String name, String columns, String text, String embedded,
            List<String> references, List<String> extended, boolean view, List<String> values, String parts) {

        /** The words of {@code words} this table's name, columns or comments hold. */
        Set<String> held(Set<String> words) {
            Set<String> held = new HashSet<>();
            for (String field : List.of(name, columns, text)) {
                for (String word : field.split(" ")) {
                    if (words.contains(word)) {
                        held.add(word);
                    }
                }
            }
            return held;
        }
    }

    /** A table found, best first. */
    public record Hit(String table, String summary, double score) {
    }

    private final List<Entry> entries;
    private final IndexSearcher searcher;
    private final float[][] vectors;
    private final SchemaGraph graph;
    private final Abbreviations abbreviations;
    private final ValueRanking values;
    private final long builtAt;
    private final int modelCalls;
    private final WordMeanings meanings;

    private SchemaIndex(List<Entry> entries, IndexSearcher searcher, float[][] vectors, SchemaGraph graph,
            Abbreviations abbreviations, ValueRanking values, long builtAt, int modelCalls, WordMeanings meanings) {
        this.entries = entries;
        this.searcher = searcher;
        this.vectors = vectors;
        this.graph = graph;
        this.abbreviations = abbreviations;
        this.values = values;
        this.builtAt = builtAt;
        this.modelCalls = modelCalls;
        this.meanings = meanings;
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
        return build(catalog, Map.of(), tables, columns, maxTables);
    }

    /**
     * The word index as {@link #build(List, TablePolicy, ColumnPolicy, int)} makes it, each table with the values of its
     * columns in {@code values} (by {@code schema.table}, then column; see {@link ColumnValues}) that the policies show:
     * the values of a hidden column or a refused table are never indexed, so they can neither be found nor steer a
     * search.
     */
    public static SchemaIndex build(List<SchemaIntrospector.CatalogTable> catalog,
            Map<String, Map<String, List<String>>> values,
            TablePolicy tables, ColumnPolicy columns, int maxTables) {
        List<Entry> entries = new ArrayList<>();
        // The source's own schema (public, a MySQL URL's database), where an unqualified policy entry names a table.
        Optional<String> own = catalog.stream().map(SchemaIntrospector.CatalogTable::relation)
                .filter(SchemaIntrospector.Relation::own).map(SchemaIntrospector.Relation::schema).findFirst();
        for (SchemaIntrospector.CatalogTable table : catalog) {
            SchemaIntrospector.Relation relation = table.relation();
            String qualified = relation.schema() + "." + relation.name();
            if (!tables.permitsNames(relation.policyNames())) {
                continue;
            }
            if (entries.size() == maxTables) {
                break;
            }
            Set<String> hidden = columns.hidden(relation.policyNames(),
                    table.columns().stream().map(SchemaIntrospector.CatalogColumn::name).toList());
            List<SchemaIntrospector.CatalogColumn> shown = table.columns().stream()
                    .filter(column -> !hidden.contains(column.name())).toList();
            List<String> references = table.references().stream()
                    .filter(reference -> tables.permitsNames(policyNames(reference, own))).toList();
            Map<String, List<String>> columnValues = values.getOrDefault(qualified, Map.of());
            List<String> shownValues = shown.stream()
                    .flatMap(column -> columnValues.getOrDefault(column.name(), List.of()).stream()).distinct().toList();
            List<String> extended = table.extended().stream().filter(references::contains).toList();
            entries.add(entry(qualified, relation, shown, references, extended, shownValues));
        }
        return lexical(entries);
    }

    /** The policy names of a referenced {@code schema.table}, in the source's {@code own} schema or not. */
    private static List<String> policyNames(String reference, Optional<String> own) {
        int dot = reference.indexOf('.');
        if (dot < 0) {
            return List.of("public." + reference);
        }
        String schema = reference.substring(0, dot);
        return SchemaIntrospector.Relation.policyNames(schema, reference.substring(dot + 1),
                own.filter(schema::equals).isPresent());
    }

    /** The one-line summary of a table comment; empty without one. */
    public static String summary(String description) {
        return description == null ? "" : SchemaWords.cut(description.strip().replaceAll("\\s+", " "), SUMMARY_CHARS);
    }

    private static Entry entry(String qualified, SchemaIntrospector.Relation relation,
            List<SchemaIntrospector.CatalogColumn> columns, List<String> references, List<String> extended,
            List<String> values) {
        String description = relation.description() == null ? "" : relation.description().strip();
        List<String> columnNames = columns.stream().map(SchemaIntrospector.CatalogColumn::name).toList();
        StringBuilder text = new StringBuilder(description);
        columns.stream().map(SchemaIntrospector.CatalogColumn::description).filter(comment -> !comment.isBlank())
                .forEach(comment -> text.append(' ').append(comment));
        references.forEach(reference -> text.append(' ').append(reference));
        String summary = description.isEmpty()
                ? SchemaWords.cut("Columns: " + String.join(", ", columnNames), SUMMARY_CHARS)
                : summary(description);
        // The model reads words, not a team's abbreviations: vndr_mstr is embedded as "vendor master".
        String embedded = SchemaWords.cut(expanded(relation.schema() + " " + relation.name())
                + (description.isEmpty() ? "" : ": " + description) + ". Columns: "
                + String.join(", ", columnNames.stream().map(SchemaIndex::expanded).toList()),
                EMBEDDED_CHARS);
        String columnTerms = SchemaWords.terms(String.join(" ", columnNames));
        return new Entry(qualified, summary, SchemaWords.terms(relation.schema() + " " + relation.name()), columnTerms,
                SchemaWords.terms(text.toString()), embedded, List.copyOf(references), List.copyOf(extended),
                relation.kind() != null && relation.kind().contains("view"), values,
                String.join(" ", SchemaWords.parts(relation.name() + " " + columnTerms)));
    }

    /** The words of {@code name} as the model reads them ({@link #written}). */
    private static String expanded(String name) {
        Expansions expansions = Expansions.english();
        return String.join(" ", SchemaWords.words(name).stream().map(word -> written(expansions, word)).toList());
    }

    /**
     * How the model reads one name word: an abbreviation as the word it stands for ({@code vndr} as vendor), words run
     * together as those words ({@code salesorderheader} as sales order header: the model's tokenizer cuts the run into
     * pieces that need not be the words, and "stock on hand" then ranked the purchase orders above
     * {@code productinventory}).
     */
    private static String written(Expansions expansions, String word) {
        String expanded = expansions.expand(word);
        // parts() leaves a word, or a name word not made of words, as it is.
        return expanded.equals(word) ? String.join(" ", expansions.parts(word)) : expanded;
    }

    /**
     * This index with a vector per table, blocking (seconds for thousands of tables). Only tables that are no copy (see
     * {@link SchemaGraph}) are embedded: a copy shares its original's vector, as it shares its meaning, so a warehouse
     * of a few hundred tables and their dozen copies each costs a few hundred embeddings. The vector of a text that
     * {@code previous} (the index this one replaces; may be null) embedded already is reused, so a periodic refresh
     * embeds only the tables that changed.
     */
    public SchemaIndex embedded(Embeddings embeddings, SchemaIndex previous) {
        Map<String, float[]> known = new HashMap<>();
        if (previous != null && previous.vectors != null) {
            for (int i = 0; i < previous.entries.size(); i++) {
                if (previous.graph.original(i) < 0) {
                    known.put(previous.entries.get(i).embedded(), previous.vectors[i]);
                }
            }
        }
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            if (graph.original(i) < 0) {
                texts.add(entries.get(i).embedded());
            }
        }
        int reused = known.size();
        embedMissing(texts, known, text -> text, embeddings);
        int embedded = known.size() - reused;
        float[][] all = new float[entries.size()][];
        for (int i = 0; i < entries.size(); i++) {
            if (graph.original(i) < 0) {
                all[i] = known.get(entries.get(i).embedded());
            }
        }
        for (int i = 0; i < entries.size(); i++) {
            int original = i;
            while (all[original] == null) {
                original = graph.original(original);
            }
            all[i] = all[original];
        }
        // The words of the names by meaning too, so a question's word no name holds finds the nearest (revenue, payment).
        WordMeanings words = WordMeanings.of(entries, embeddings, previous == null ? null : previous.meanings);
        return new SchemaIndex(entries, searcher, all, graph, abbreviations, values, builtAt, embedded, words);
    }

    /**
     * Adds to {@code known} the normalised vector of each of {@code keys} it lacks (each once), embedding
     * {@code text.apply(key)} in batches of {@link #BATCH}.
     */
    static void embedMissing(List<String> keys, Map<String, float[]> known, UnaryOperator<String> text,
            Embeddings embeddings) {
        List<String> missing = keys.stream().distinct().filter(key -> !known.containsKey(key)).toList();
        for (int from = 0; from < missing.size(); from += BATCH) {
            List<String> batch = missing.subList(from, Math.min(missing.size(), from + BATCH));
            List<float[]> embedded = embeddings.embedAll(batch.stream().map(text).toList());
            for (int j = 0; j < batch.size(); j++) {
                known.put(batch.get(j), normalised(embedded.get(j)));
            }
        }
    }

    /** The lexical index of {@code entries}, without vectors. */
    static SchemaIndex lexical(List<Entry> entries) {
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer()))) {
            for (int i = 0; i < entries.size(); i++) {
                Entry entry = entries.get(i);
                Document document = new Document();
                document.add(new StoredField(POSITION, i));
                // The schema's name is shared by every table in it, so it does not tell them apart: only the
                // table's own name is indexed as its name (the vector's text keeps the schema).
                int dot = entry.table().indexOf('.');
                document.add(new TextField(NAME, SchemaWords.terms(entry.table().substring(dot + 1)), Field.Store.NO));
                document.add(new TextField(COLUMNS, entry.columns(), Field.Store.NO));
                document.add(new TextField(TEXT, entry.text(), Field.Store.NO));
                document.add(new TextField(PARTS, entry.parts(), Field.Store.NO));
                writer.addDocument(document);
            }
            writer.commit();
            // The reader lives as long as this snapshot; it holds only heap memory, released with it.
            return new SchemaIndex(List.copyOf(entries), new IndexSearcher(DirectoryReader.open(directory)), null,
                    new SchemaGraph(entries), new Abbreviations(entries), new ValueRanking(entries),
                    System.currentTimeMillis(), 0, null);
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
        return new SchemaIndex(entries, searcher, normalised, graph, abbreviations, values, builtAt, vectors.length, null);
    }

    public List<Entry> entries() {
        return entries;
    }

    public boolean semantic() {
        return vectors != null;
    }

    /** MessageText the model embedded for this snapshot (the others were reused or are copies'). */
    public int modelCalls() {
        return modelCalls;
    }

    /** Words of the names with a vector of their own ({@link WordMeanings}); 0 without vectors. */
    public int wordVectors() {
        return meanings == null ? 0 : meanings.size();
    }

    /** Question words the search has embedded to look them up by meaning ({@link WordMeanings#embedded()}). */
    long questionWordsEmbedded() {
        return meanings == null ? 0 : meanings.embedded();
    }

    /** Tables with column values indexed. */
    public long valued() {
        return entries.stream().filter(entry -> !entry.values().isEmpty()).count();
    }

    /** Tables that are copies of another and share its vector. */
    public long copies() {
        return graph.copies();
    }

    long builtAt() {
        return builtAt;
    }

    /**
     * The best {@code limit} tables for a question: by its words (BM25), by meaning when this index has vectors and
     * {@code queryVector} is given, and by {@code knowledgeTables} (tables the knowledge base's hits name, best first).
     */
    public List<Hit> search(String query, float[] queryVector, List<String> knowledgeTables, int limit) {
        return new SchemaRanking(entries, searcher, vectors, graph, abbreviations, values,
                queryVector == null ? null : meanings).search(query, queryVector,
                        knowledgeTables, limit);
    }

    /** The dot product of two vectors: their cosine similarity when both are {@link #normalised}. */
    static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    static float[] normalised(float[] vector) {
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
