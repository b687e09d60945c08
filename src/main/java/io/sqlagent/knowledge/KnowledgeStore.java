package io.sqlagent.knowledge;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.store.NamedSql;
import io.sqlagent.store.StoreMigrations;
import io.sqlagent.tool.ToolException;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The knowledge base in the store ({@code query_pattern}, {@code learning}, {@code knowledge_doc}),
 * in plain SQL on the store's reactive client (full-text ranking, {@code INSERT … ON CONFLICT}), items read as
 * {@link ReviewedItem}s ({@link KnowledgeItems}). Duplicates are caught by
 * the tables' unique indexes, not by a read before the write, so two agents saving the same thing at
 * once still store it once.
 */
@ApplicationScoped
public class KnowledgeStore {

    /** At most this many words of a search query are used; the rest add little but cost. */
    static final int MAX_QUERY_WORDS = 32;

    private static final String SEARCH_PATTERNS = """
            SELECT name, question, sql, summary, CAST(array_to_json(tables_used) AS text) AS tables,
                   round(CAST(r AS numeric), 2) AS score, CAST(r AS float8) AS rank
            FROM (SELECT p.*, ts_rank_cd(p.search, q) AS r
                  FROM query_pattern p, to_tsquery('english', :query) q
                  WHERE p.search @@ q AND p.status = 'approved' AND p.check_status IS DISTINCT FROM 'failed'
                      AND p.check_status IS DISTINCT FROM 'drifted') found
            ORDER BY r DESC, id LIMIT :limit""";

    /** Table notes and rules as learnings; {@code %s} is {@link #SAVED_LEARNINGS} or nothing. */
    private static final String SEARCH_LEARNINGS = """
            SELECT title, description, category, sql, round(CAST(r AS numeric), 2) AS score, CAST(r AS float8) AS rank
            FROM (%s
                  SELECT d.id, 1 AS part, name AS title, body AS description,
                         CASE kind WHEN 'rule' THEN 'business_logic' ELSE 'data_quality' END AS category, CAST(NULL AS text) AS sql,
                         ts_rank_cd(search, q) AS r
                  FROM knowledge_doc d, to_tsquery('english', :query) q WHERE search @@ q) found
            ORDER BY r DESC, part, id LIMIT :limit""";

    private static final String SAVED_LEARNINGS = """
            SELECT l.id, 0 AS part, title, description, category, sql, ts_rank_cd(search, q) AS r
                  FROM learning l, to_tsquery('english', :query) q WHERE search @@ q AND status = 'approved'
                  UNION ALL""";

    /** The latest question of a conversation (a uuid or null): the provenance's {@code asked}. */
    private static final String ASKED = """
            (SELECT content FROM conversation_message WHERE conversation_id = CAST(CAST(:conversation AS text) AS uuid) AND role = 'user'
             ORDER BY id DESC LIMIT 1)""";

    /** The same title (ignoring case and surrounding blanks) in the same category: what {@code dedup_key} keeps unique. */
    private static final String SAME_LEARNING = "lower(btrim(title, ' ')) = lower($1) AND category = $2 LIMIT 1";

    private static final String INSERT_LEARNING = """
            INSERT INTO learning (title, description, category, sql, source, conversation_id, status, proposed_by, embedding, asked)
            VALUES (:title, :description, :category, :sql, :source, :conversationId, :status, :proposedBy,
                    CAST(CAST(:embedding AS text) AS real[]), %s)
            ON CONFLICT (dedup_key) DO NOTHING"""
            .formatted(ASKED);

    private static final String INSERT_AGENT_PATTERN = """
            INSERT INTO query_pattern
                (name, question, sql, summary, tables_used, data_quality_notes, source, source_file, conversation_id,
                 status, proposed_by, result_columns, result_rows, result_digest, check_status, checked_at, asked)
            VALUES (:name, :question, :sql, :summary, %s, :dataQualityNotes, :source, :sourceFile, :conversationId,
                    :status, :proposedBy, CAST(CAST(:resultColumns AS text) AS jsonb), :resultRows, :resultDigest, 'ok', now(), %s)
            ON CONFLICT DO NOTHING""";

    /** {@code tables_used} from a JSON array of names: a text parameter, so no array binding is needed. */
    private static final String TABLES = "ARRAY(SELECT json_array_elements_text(CAST(CAST(:tablesUsed AS text) AS json)))";

    private static final String SAME_PATTERN = "name = $1 OR lower(btrim(question, ' ')) = lower($2)";

    private static final String UPSERT_FILE_PATTERN = """
            INSERT INTO query_pattern
                (name, question, sql, summary, tables_used, data_quality_notes, source, source_file, conversation_id)
            VALUES (:name, :question, :sql, :summary, %s, :dataQualityNotes, :source, :sourceFile, :conversationId)
            ON CONFLICT (name) DO UPDATE SET question = excluded.question, sql = excluded.sql, summary = excluded.summary,
                tables_used = excluded.tables_used, data_quality_notes = excluded.data_quality_notes,
                source_file = excluded.source_file
            WHERE query_pattern.source = 'file'""".formatted(TABLES);

    private static final String UPSERT_DOC = """
            INSERT INTO knowledge_doc (kind, name, body, source_file) VALUES (:kind, :name, :body, :sourceFile)
            ON CONFLICT (kind, name) DO UPDATE SET body = excluded.body, source_file = excluded.source_file""";

    private final Pool store;
    private final StoreMigrations migrations;
    private final MeterRegistry meters;
    private final LearningConfig learning;
    private final LearningEmbeddings embeddings;

    KnowledgeStore(Pool store, StoreMigrations migrations, MeterRegistry meters, LearningConfig learning,
            LearningEmbeddings embeddings) {
        this.store = store;
        this.migrations = migrations;
        this.meters = meters;
        this.learning = learning;
        this.embeddings = embeddings;
    }

    /** The status what the agent saves gets: {@code approved} at once, or {@code proposed} for a reviewer. */
    public String newStatus() {
        return learning.approval() == LearningConfig.Approval.REQUIRED ? "proposed" : "approved";
    }

    /** Counts what the agent saved: {@code sqlagent_knowledge_saved_total{kind, category}}. */
    private void countSaved(String kind, String category) {
        io.micrometer.core.instrument.Counter.builder("sqlagent.knowledge.saved")
                .description("Knowledge entries saved, by kind and category")
                .tags("kind", kind, "category", category).register(meters).increment();
    }

    /** A query pattern found by a search, with its rank. */
    public record PatternHit(String name, String question, String sql, String summary, List<String> tablesUsed,
            double relevanceScore, double rank) {
    }

    /** A learning (or a table note or rule from a knowledge file) found by a search, with its rank. */
    public record LearningHit(String title, String description, String category, String sql, double relevanceScore,
            double rank) {
    }

    /**
     * The words of {@code query} as a PostgreSQL tsquery that matches any of them ({@code a | b}),
     * so a partial match still counts and ranks; empty when there is no word. Only letters and
     * digits survive, so nothing the model writes can be tsquery syntax.
     */
    public static Optional<String> anyWordQuery(String query) {
        Set<String> words = new LinkedHashSet<>();
        for (String word : query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty() && words.size() < MAX_QUERY_WORDS) {
                words.add(word);
            }
        }
        return words.isEmpty() ? Optional.empty() : Optional.of(String.join(" | ", words));
    }

    /** Query patterns matching any word of {@code tsquery}, best first. */
    public Uni<List<PatternHit>> searchPatterns(String tsquery, int limit) {
        return ready().flatMap(ok -> search(SEARCH_PATTERNS, tsquery, limit))
                .map(rows -> rows.stream().map(row -> new PatternHit(row.getString(0), row.getString(1), row.getString(2),
                        row.getString(3), names(row.getString(4)), number(row, 5), number(row, 6))).toList());
    }

    /**
     * Learnings, table notes and business rules matching any word of {@code tsquery}, best first;
     * saved learnings only when {@code includeSaved}. Notes and rules come back as learnings (a rule
     * as {@code business_logic}, a table note as {@code data_quality}) so the result keeps the tool's shape.
     */
    public Uni<List<LearningHit>> searchLearnings(String tsquery, int limit, boolean includeSaved) {
        String sql = SEARCH_LEARNINGS.formatted(includeSaved ? SAVED_LEARNINGS : "");
        return ready().flatMap(ok -> search(sql, tsquery, limit))
                .map(rows -> rows.stream().map(row -> new LearningHit(row.getString(0), row.getString(1), row.getString(2),
                        row.getString(3), number(row, 4), number(row, 5))).toList());
    }

    /** A full-text search ranked by PostgreSQL ({@code ts_rank_cd}). */
    private Uni<List<Row>> search(String sql, String tsquery, int limit) {
        return NamedSql.of(sql).execute(store, Map.of("query", tsquery, "limit", (long) limit))
                .map(rows -> {
                    List<Row> found = new java.util.ArrayList<>(rows.size());
                    rows.forEach(found::add);
                    return found;
                });
    }

    private static double number(Row row, int column) {
        return ((Number) row.getValue(column)).doubleValue();
    }

    private static List<String> names(String json) {
        try {
            return json == null ? List.of() : List.of(SnakeCaseJson.MAPPER.readValue(json, String[].class));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("The store returned table names that are not JSON", e);
        }
    }

    /**
     * Saves a learning, {@linkplain #newStatus() approved or proposed}, with its provenance and
     * embedding. Fails with a {@link ToolException} naming the one already stored when the same title
     * was saved in the same category before; answers {@link SaveOutcome.NearDuplicate} without storing it
     * when a stored learning says the same in other words ({@code sqlagent.learning.duplicate-similarity}).
     * Both look only at what {@code reader} may read: another principal's proposal is never named, and is no
     * near-duplicate; the same title as one (which the store keeps once) is refused without saying whose or which.
     */
    public Uni<SaveOutcome> saveLearning(String title, String description, String category, String sql, Provenance provenance,
            KnowledgeReader reader) {
        return ready().flatMap(ok -> sameLearning(title, category))
                .flatMap(same -> {
                    if (same != null) {
                        return Uni.createFrom().failure(alreadyKnown(same, category, reader));
                    }
                    return embeddings.embed(LearningEmbeddings.text(title, description))
                            .flatMap(vector -> embeddings.nearest(vector, learning.duplicateSimilarity(), reader)
                                    .flatMap(near -> near.<Uni<SaveOutcome>> map(found -> Uni.createFrom().item(
                                            new SaveOutcome.NearDuplicate(found.id(), found.title(), found.status(),
                                                    found.similarity())))
                                            .orElseGet(() -> insertLearning(title, description, category, sql, provenance,
                                                    vector, reader))));
                });
    }

    private Uni<Learning> sameLearning(String title, String category) {
        return sameLearning(store, title, category);
    }

    private static Uni<Learning> sameLearning(SqlClient client, String title, String category) {
        return KnowledgeItems.learnings(client, SAME_LEARNING, trimmed(title), category)
                .map(found -> found.isEmpty() ? null : found.get(0));
    }

    /**
     * Inserts the learning unless its {@code dedup_key} is taken ({@code ON CONFLICT}, so two agents saving the same
     * learning at once store it once), then reads it back.
     */
    private Uni<SaveOutcome> insertLearning(String title, String description, String category, String sql,
            Provenance provenance,
            Float[] vector, KnowledgeReader reader) {
        String status = newStatus();
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("title", title);
        values.put("description", description);
        values.put("category", category);
        values.put("sql", sql);
        values.put("source", provenance.source());
        values.put("conversationId", provenance.conversationId().orElse(null));
        values.put("status", status);
        values.put("proposedBy", provenance.principal());
        values.put("embedding", LearningEmbeddings.literal(vector));
        values.put("conversation", provenance.conversation().map(Object::toString).orElse(null));
        return store.withTransaction(connection -> execute(connection, INSERT_LEARNING, values)
                .flatMap(inserted -> sameLearning(connection, title, category)
                        .map(stored -> {
                            if (inserted == 0) {
                                // Saved by someone else since the look-up: the same learning, stored once.
                                throw alreadyKnown(stored, category, reader);
                            }
                            return stored;
                        })))
                .map(stored -> (SaveOutcome) new SaveOutcome.Stored(stored.id, status))
                .invoke(saved -> countSaved("learning", category));
    }

    /** {@code text} without surrounding spaces, as PostgreSQL's {@code btrim(text, ' ')} leaves it. */
    private static String trimmed(String text) {
        return text.replaceAll("^ +| +$", "");
    }

    private static ToolException alreadyKnown(Learning same, String category, KnowledgeReader reader) {
        if (!reader.mayRead(same)) {
            // Another principal's proposal: the title is the caller's own words, so saying it is taken tells nothing
            // the caller did not write; which item, whose, and whether it was rejected stay unsaid.
            return new ToolException("A learning with this title in category " + category
                    + " is already known or waiting for review; it was not saved again.");
        }
        return new ToolException("This learning is already known: '" + same.title + "' (" + category + ", id " + same.id
                + (same.status.equals("approved") ? "" : ", " + same.status) + "); it was not saved again.");
    }

    /**
     * Saves a query pattern the agent validated ({@code shape}: what its result looked like then),
     * {@linkplain #newStatus() approved or proposed}; fails with a {@link ToolException} when a
     * pattern with the same question or the same name exists.
     */
    public Uni<SaveOutcome> saveAgentPattern(KnowledgeFile.Pattern pattern, Provenance provenance, ResultShape shape,
            KnowledgeReader reader) {
        String status = newStatus();
        Map<String, Object> values = patternValues(pattern, "agent", null, provenance.conversationId().orElse(null));
        values.put("status", status);
        values.put("proposedBy", provenance.principal());
        values.put("resultColumns", shape.columns().toString());
        values.put("resultRows", shape.rows());
        values.put("resultDigest", shape.digest());
        values.put("conversation", provenance.conversation().map(Object::toString).orElse(null));
        return ready().flatMap(ok -> store.withTransaction(connection -> execute(connection,
                INSERT_AGENT_PATTERN.formatted(TABLES, ASKED), values)
                .flatMap(inserted -> KnowledgeItems.patterns(connection, SAME_PATTERN, pattern.name(),
                        trimmed(pattern.question()))
                        .map(same -> inserted == 0 ? duplicatePattern(same, pattern, reader)
                                : same.stream().filter(found -> found.name.equals(pattern.name())).findFirst()
                                        .orElseThrow()))))
                .map(stored -> (SaveOutcome) new SaveOutcome.Stored(stored.id, status))
                .invoke(saved -> countSaved("query_pattern", "validated_query"));
    }

    /**
     * The refusal of a pattern whose question or name is taken. One the caller may not read (another principal's
     * proposal) is not named: the caller learns only that its own question or name is taken.
     */
    private static QueryPattern duplicatePattern(List<QueryPattern> found, KnowledgeFile.Pattern pattern,
            KnowledgeReader reader) {
        if (found.isEmpty()) {
            // Deleted between the insert and the look-up: rare, and a retry will do.
            throw new ToolException("The query pattern could not be saved because of a concurrent change; try again.");
        }
        String question = trimmed(pattern.question()).toLowerCase(Locale.ROOT);
        for (QueryPattern same : found) {
            if (trimmed(same.question).toLowerCase(Locale.ROOT).equals(question)) {
                throw new ToolException(reader.mayRead(same)
                        ? "A validated query for this question already exists: '" + same.name + "' (id " + same.id + ")"
                        : "A validated query for this question is already known or waiting for review; it was not saved again.");
            }
        }
        QueryPattern same = found.get(0);
        throw new ToolException(reader.mayRead(same)
                ? "A query pattern named '" + same.name + "' already exists (id " + same.id + "); choose another name."
                : "The name '" + pattern.name() + "' is taken; choose another name.");
    }

    /**
     * Inserts or updates a pattern from a knowledge file, by name. Returns {@code false} when the
     * name belongs to a pattern the agent saved, which a file does not overwrite.
     */
    public Uni<Boolean> upsertFilePattern(KnowledgeFile.Pattern pattern, String sourceFile) {
        return execute(store, UPSERT_FILE_PATTERN, patternValues(pattern, "file", sourceFile, null))
                .map(rows -> rows > 0);
    }

    /** Inserts or updates a table note ({@code table}) or business rule ({@code rule}) from a knowledge file. */
    public Uni<Void> upsertDoc(String kind, String name, String body, String sourceFile) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("kind", kind);
        values.put("name", name);
        values.put("body", body);
        values.put("sourceFile", sourceFile);
        return execute(store, UPSERT_DOC, values).replaceWithVoid();
    }

    /**
     * Deletes what the knowledge files named {@code prefix}… loaded (patterns a file defined, table notes and rules):
     * {@link KnowledgeLoader#SHIPPED_PREFIX} for the files shipped in the service. The patterns the agent or a caller
     * saved stay. Returns the items deleted.
     */
    public Uni<Integer> forgetFiles(String prefix) {
        Tuple named = Tuple.of(prefix);
        return store.withTransaction(client -> client
                .preparedQuery("DELETE FROM query_pattern WHERE source = 'file' AND starts_with(source_file, $1)")
                .execute(named)
                .flatMap(patterns -> client.preparedQuery("DELETE FROM knowledge_doc WHERE starts_with(source_file, $1)")
                        .execute(named).map(docs -> patterns.rowCount() + docs.rowCount())));
    }

    /** A statement with named parameters ({@code INSERT ... ON CONFLICT}); the rows it changed. */
    private static Uni<Integer> execute(SqlClient client, String sql, Map<String, Object> values) {
        return NamedSql.of(sql).execute(client, values).map(rows -> rows.rowCount());
    }

    private static Map<String, Object> patternValues(KnowledgeFile.Pattern pattern, String source, String sourceFile,
            String conversationId) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("name", pattern.name());
        values.put("question", pattern.question());
        values.put("sql", pattern.sql());
        values.put("summary", pattern.summary());
        values.put("tablesUsed", new JsonArray(List.copyOf(pattern.tablesUsed())).encode());
        values.put("dataQualityNotes", pattern.dataQualityNotes());
        values.put("source", source);
        values.put("sourceFile", sourceFile);
        values.put("conversationId", conversationId);
        return values;
    }

    private Uni<Boolean> ready() {
        if (!migrations.ready()) {
            return Uni.createFrom().failure(new ToolException(
                    "The knowledge base is not available: the store's schema could not be brought up to date (see the service log)."));
        }
        return Uni.createFrom().item(true);
    }
}
