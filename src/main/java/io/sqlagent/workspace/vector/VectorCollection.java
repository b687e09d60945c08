package io.sqlagent.workspace.vector;

import java.io.Closeable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.tool.ToolException;

/**
 * One collection: a Lucene index on disk holding, per document, its id, its text (also indexed
 * for keywords), its metadata (stored as JSON, each key indexed for equality filters) and its
 * vector (HNSW, cosine). One writer per collection serialises changes and commits each one, so a
 * restart keeps everything acknowledged; searches use near-real-time readers and never wait for
 * a writer.
 */
final class VectorCollection implements Closeable {

    private static final String ID = "id";
    private static final String TEXT = "text";
    private static final String METADATA = "metadata";
    private static final String VECTOR = "vector";
    private static final String FILTER_PREFIX = "m.";
    private static final String INFO_FILE = "sqlagent-collection.json";

    /** A document to store. */
    record Entry(String id, String text, ObjectNode metadata, float[] vector) {
    }

    /** A search hit; {@code score} is cosine similarity mapped to 0–1. */
    record Hit(String id, String text, JsonNode metadata, float score) {
    }

    private final String name;
    private final Path directory;
    private final FSDirectory index;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private volatile Info info;

    /** What the collection was filled with: its vectors' length and the model that made them. */
    record Info(int dimension, String embedding) {
    }

    private VectorCollection(String name, Path directory, Info info) throws IOException {
        this.name = name;
        this.directory = directory;
        this.index = FSDirectory.open(directory);
        // Every change is committed when it is made, so closing has nothing to commit: it rolls back, which aborts
        // a merge still running instead of waiting for it (close).
        this.writer = new IndexWriter(index, new IndexWriterConfig(new StandardAnalyzer()).setCommitOnClose(false));
        this.searchers = new SearcherManager(writer, null);
        this.info = info;
    }

    static boolean exists(Path directory) {
        return Files.isRegularFile(directory.resolve(INFO_FILE));
    }

    /** Opens an existing collection, or creates it when {@code create} is given its first vectors' shape. */
    static VectorCollection open(String name, Path directory, Optional<Info> create) throws IOException {
        Info info;
        if (exists(directory)) {
            info = SnakeCaseJson.MAPPER.readValue(directory.resolve(INFO_FILE).toFile(), Info.class);
        } else if (create.isPresent()) {
            Files.createDirectories(directory);
            info = create.get();
            Path temporary = directory.resolve(INFO_FILE + ".tmp");
            SnakeCaseJson.MAPPER.writeValue(temporary.toFile(), info);
            Files.move(temporary, directory.resolve(INFO_FILE), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } else {
            throw new ToolException("No collection named '" + name + "' exists; vector_manage insert creates one");
        }
        return new VectorCollection(name, directory, info);
    }

    Info info() {
        return info;
    }

    /** Documents among {@code ids} that exist. */
    List<String> existing(List<String> ids) throws IOException {
        List<String> found = new ArrayList<>();
        searchers.maybeRefreshBlocking();
        IndexSearcher searcher = searchers.acquire();
        try {
            for (String id : ids) {
                if (searcher.count(new TermQuery(new Term(ID, id))) > 0) {
                    found.add(id);
                }
            }
        } finally {
            searchers.release(searcher);
        }
        return found;
    }

    /** Adds or replaces the entries (by id), then commits. */
    void put(List<Entry> entries) throws IOException {
        replace(entries, List.of());
    }

    /** Deletes the documents with these ids, then commits. */
    void delete(List<String> ids) throws IOException {
        replace(List.of(), ids);
    }

    /** Adds or replaces {@code put} and deletes {@code delete} (by id), then commits once. */
    void replace(List<Entry> put, List<String> delete) throws IOException {
        for (Entry entry : put) {
            checkDimension(entry.vector());
            writer.updateDocument(new Term(ID, entry.id()), document(entry));
        }
        for (String id : delete) {
            writer.deleteDocuments(new Term(ID, id));
        }
        commit();
    }

    private void commit() throws IOException {
        writer.commit();
        searchers.maybeRefresh();
    }

    /** The {@code k} nearest documents to {@code vector} whose metadata has every {@code filters} value. */
    List<Hit> search(float[] vector, int k, ObjectNode filters) throws IOException {
        checkDimension(vector);
        Query filter = null;
        if (filters != null && !filters.isEmpty()) {
            BooleanQuery.Builder all = new BooleanQuery.Builder();
            for (Iterator<Map.Entry<String, JsonNode>> it = filters.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> field = it.next();
                all.add(new TermQuery(new Term(FILTER_PREFIX + field.getKey(), filterValue(field.getKey(), field.getValue()))),
                        BooleanClause.Occur.FILTER);
            }
            filter = all.build();
        }
        IndexSearcher searcher = searchers.acquire();
        try {
            TopDocs top = searcher.search(new KnnFloatVectorQuery(VECTOR, vector, k, filter), k);
            StoredFields stored = searcher.storedFields();
            List<Hit> hits = new ArrayList<>(top.scoreDocs.length);
            for (ScoreDoc scoreDoc : top.scoreDocs) {
                Document document = stored.document(scoreDoc.doc);
                hits.add(new Hit(document.get(ID), document.get(TEXT), SnakeCaseJson.MAPPER.readTree(document.get(METADATA)),
                        scoreDoc.score));
            }
            return hits;
        } finally {
            searchers.release(searcher);
        }
    }

    private void checkDimension(float[] vector) {
        check(name, info.dimension(), vector);
    }

    /** Refuses a vector that cannot be stored in or compared with collection {@code name} of {@code dimension}. */
    static void check(String name, int dimension, float[] vector) {
        if (vector.length != dimension) {
            throw new ToolException(
                    "Collection '" + name + "' holds vectors of " + dimension + " dimensions; this one has "
                            + vector.length);
        }
        double norm = 0;
        for (float value : vector) {
            if (!Float.isFinite(value)) {
                throw new ToolException("A vector may hold only finite numbers");
            }
            norm += value * value;
        }
        if (norm == 0) {
            throw new ToolException("A vector of zeros has no direction; it cannot be compared");
        }
    }

    private static Document document(Entry entry) {
        Document document = new Document();
        document.add(new StringField(ID, entry.id(), Field.Store.YES));
        document.add(new TextField(TEXT, entry.text(), Field.Store.YES));
        document.add(new StoredField(METADATA, entry.metadata().toString()));
        entry.metadata().fields().forEachRemaining(field -> document.add(
                new StringField(FILTER_PREFIX + field.getKey(), filterValue(field.getKey(), field.getValue()),
                        Field.Store.NO)));
        document.add(new KnnFloatVectorField(VECTOR, entry.vector(), VectorSimilarityFunction.COSINE));
        return document;
    }

    /** One spelling per value, typed, so that 1, 1.0 and "1" are told apart and 1 equals 1.0. */
    static String filterValue(String key, JsonNode value) {
        if (value.isTextual()) {
            return "s:" + value.asText();
        }
        if (value.isNumber()) {
            BigDecimal number = value.decimalValue().stripTrailingZeros();
            return "n:" + (number.signum() == 0 ? "0" : number.toPlainString());
        }
        if (value.isBoolean()) {
            return "b:" + value.asBoolean();
        }
        throw new ToolException("Metadata '" + key + "' must be a string, number or boolean to be stored or filtered on");
    }

    /** Merges the index into one segment in the background, as a merge policy does when segments pile up. */
    void mergeInBackground() throws IOException {
        writer.forceMerge(1, false);
    }

    /** Whether a merge is running. */
    boolean merging() {
        return !writer.getMergingSegments().isEmpty();
    }

    /** The metadata keys the collection's documents have had (the index's filter fields). */
    Set<String> metadataKeys() {
        Set<String> keys = new HashSet<>();
        for (String field : writer.getFieldNames()) {
            if (field.startsWith(FILTER_PREFIX)) {
                keys.add(field.substring(FILTER_PREFIX.length()));
            }
        }
        return keys;
    }

    /**
     * Closes without waiting for merges: {@link IndexWriter#rollback()} aborts them and drops nothing acknowledged,
     * since each change was committed when it was made.
     */
    @Override
    public void close() throws IOException {
        try {
            searchers.close();
        } finally {
            try {
                writer.rollback();
            } finally {
                index.close();
            }
        }
    }

    Path directory() {
        return directory;
    }

    /**
     * Hands every document to {@code batch}, {@code size} at a time, vectors included (read back
     * from the index's vector values): how a collection written before the store held collections
     * is copied into it.
     */
    void forEachBatch(int size, IoConsumer<List<Entry>> batch) throws IOException {
        searchers.maybeRefreshBlocking();
        IndexSearcher searcher = searchers.acquire();
        try {
            List<Entry> entries = new ArrayList<>(size);
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                FloatVectorValues vectors = leaf.reader().getFloatVectorValues(VECTOR);
                Bits live = leaf.reader().getLiveDocs();
                StoredFields stored = leaf.reader().storedFields();
                if (vectors == null) {
                    continue;
                }
                for (int doc = vectors.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = vectors.nextDoc()) {
                    if (live != null && !live.get(doc)) {
                        continue;
                    }
                    Document document = stored.document(doc);
                    entries.add(new Entry(document.get(ID), document.get(TEXT),
                            (ObjectNode) SnakeCaseJson.MAPPER.readTree(document.get(METADATA)), vectors.vectorValue().clone()));
                    if (entries.size() == size) {
                        batch.accept(List.copyOf(entries));
                        entries.clear();
                    }
                }
            }
            if (!entries.isEmpty()) {
                batch.accept(List.copyOf(entries));
            }
        } finally {
            searchers.release(searcher);
        }
    }

    /** A consumer that may fail with an {@link IOException}. */
    @FunctionalInterface
    interface IoConsumer<T> {
        void accept(T value) throws IOException;
    }
}
