package io.sqlagent.knowledge;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.sqlagent.store.StoreMigrations;
import io.sqlagent.tool.ToolException;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The knowledge base in the store ({@code query_pattern}, {@code learning}, {@code knowledge_doc}),
 * in plain SQL over the reactive pool. Duplicates are caught by the tables' unique indexes, not by
 * a read before the write, so two agents saving the same thing at once still store it once.
 */
@ApplicationScoped
public class KnowledgeStore {

    /** At most this many words of a search query are used; the rest add little but cost. */
    static final int MAX_QUERY_WORDS = 32;

    private static final String SEARCH_PATTERNS = """
            SELECT name, question, sql, summary, tables_used, r AS rank, round(r::numeric, 2)::float8 AS score
            FROM (SELECT p.*, ts_rank_cd(p.search, q) AS r
                  FROM query_pattern p, to_tsquery('english', $1) q
                  WHERE p.search @@ q AND p.status = 'approved' AND p.check_status IS DISTINCT FROM 'failed'
                      AND p.check_status IS DISTINCT FROM 'drifted') found
            ORDER BY r DESC, id LIMIT $2""";

    /** Table notes and rules as learnings; {@code %s} is {@link #SAVED_LEARNINGS} or nothing. */
    private static final String SEARCH_LEARNINGS = """
            SELECT title, description, category, sql, r AS rank, round(r::numeric, 2)::float8 AS score
            FROM (%s
                  SELECT d.id, 1 AS part, name AS title, body AS description,
                         CASE kind WHEN 'rule' THEN 'business_logic' ELSE 'data_quality' END AS category, NULL::text AS sql,
                         ts_rank_cd(search, q) AS r
                  FROM knowledge_doc d, to_tsquery('english', $1) q WHERE search @@ q) found
            ORDER BY r DESC, part, id LIMIT $2""";

    private static final String SAVED_LEARNINGS = """
            SELECT l.id, 0 AS part, title, description, category, sql, ts_rank_cd(search, q) AS r
                  FROM learning l, to_tsquery('english', $1) q WHERE search @@ q AND status = 'approved'
                  UNION ALL""";

    /** The latest question of a conversation ({@code $n}, a uuid or null): the provenance's {@code asked}. */
    private static final String ASKED = """
            (SELECT content FROM conversation_message WHERE conversation_id = $%d AND role = 'user' ORDER BY id DESC LIMIT 1)""";

    private static final String INSERT_LEARNING = """
            INSERT INTO learning (title, description, category, sql, source, conversation_id, status, proposed_by, embedding, asked)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, %s) ON CONFLICT (dedup_key) DO NOTHING RETURNING id"""
            .formatted(ASKED.formatted(10));

    private static final String SAME_LEARNING = """
            SELECT id, title, status FROM learning WHERE dedup_key = md5(lower(btrim($1)) || '|' || $2)""";

    private static final String INSERT_AGENT_PATTERN = """
            INSERT INTO query_pattern
                (name, question, sql, summary, tables_used, data_quality_notes, source, source_file, conversation_id,
                 status, proposed_by, result_columns, result_rows, result_digest, check_status, checked_at, asked)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'ok', now(), %s)
            ON CONFLICT DO NOTHING RETURNING id""".formatted(ASKED.formatted(15));

    private static final String SAME_PATTERN = """
            SELECT id, name, lower(btrim(question)) = lower(btrim($2)) AS same_question
            FROM query_pattern WHERE name = $1 OR lower(btrim(question)) = lower(btrim($2))
            ORDER BY same_question DESC LIMIT 1""";

    private static final String UPSERT_FILE_PATTERN = """
            INSERT INTO query_pattern
                (name, question, sql, summary, tables_used, data_quality_notes, source, source_file, conversation_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            ON CONFLICT (name) DO UPDATE SET question = excluded.question, sql = excluded.sql, summary = excluded.summary,
                tables_used = excluded.tables_used, data_quality_notes = excluded.data_quality_notes,
                source_file = excluded.source_file
            WHERE query_pattern.source = 'file' RETURNING id""";

    private static final String UPSERT_DOC = """
            INSERT INTO knowledge_doc (kind, name, body, source_file) VALUES ($1, $2, $3, $4)
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
        return ready().flatMap(ok -> store.preparedQuery(SEARCH_PATTERNS)
                .execute(Tuple.of(tsquery, limit)))
                .map(rows -> {
                    List<PatternHit> hits = new ArrayList<>();
                    for (Row row : rows) {
                        String[] tables = row.getArrayOfStrings("tables_used");
                        hits.add(new PatternHit(row.getString("name"), row.getString("question"), row.getString("sql"),
                                row.getString("summary"), tables == null ? List.of() : List.of(tables),
                                row.getDouble("score"), row.getDouble("rank")));
                    }
                    return hits;
                });
    }

    /**
     * Learnings, table notes and business rules matching any word of {@code tsquery}, best first;
     * saved learnings only when {@code includeSaved}. Notes and rules come back as learnings (a rule
     * as {@code business_logic}, a table note as {@code data_quality}) so the result keeps the tool's shape.
     */
    public Uni<List<LearningHit>> searchLearnings(String tsquery, int limit, boolean includeSaved) {
        String sql = SEARCH_LEARNINGS.formatted(includeSaved ? SAVED_LEARNINGS : "");
        return ready().flatMap(ok -> store.preparedQuery(sql).execute(Tuple.of(tsquery, limit)))
                .map(rows -> {
                    List<LearningHit> hits = new ArrayList<>();
                    for (Row row : rows) {
                        hits.add(new LearningHit(row.getString("title"), row.getString("description"),
                                row.getString("category"), row.getString("sql"), row.getDouble("score"),
                                row.getDouble("rank")));
                    }
                    return hits;
                });
    }

    /**
     * Saves a learning, {@linkplain #newStatus() approved or proposed}, with its provenance and
     * embedding. Fails with a {@link ToolException} naming the one already stored when the same title
     * was saved in the same category before; answers {@link Saved.NearDuplicate} without storing it
     * when a stored learning says the same in other words ({@code sqlagent.learning.duplicate-similarity}).
     */
    public Uni<Saved> saveLearning(String title, String description, String category, String sql, Provenance provenance) {
        return ready().flatMap(ok -> store.preparedQuery(SAME_LEARNING).execute(Tuple.of(title, category)))
                .flatMap(same -> {
                    if (same.size() > 0) {
                        return Uni.createFrom().failure(alreadyKnown(same.iterator().next(), category));
                    }
                    return embeddings.embed(LearningEmbeddings.text(title, description))
                            .flatMap(vector -> embeddings.nearest(vector, learning.duplicateSimilarity())
                                    .flatMap(near -> near.<Uni<Saved>> map(found -> Uni.createFrom().item(
                                            new Saved.NearDuplicate(found.id(), found.title(), found.status(),
                                                    found.similarity())))
                                            .orElseGet(() -> insertLearning(title, description, category, sql, provenance,
                                                    vector))));
                });
    }

    private Uni<Saved> insertLearning(String title, String description, String category, String sql, Provenance provenance,
            Float[] vector) {
        String status = newStatus();
        Tuple values = Tuple.tuple().addString(title).addString(description).addString(category).addString(sql)
                .addString(provenance.source()).addString(provenance.conversationId().orElse(null)).addString(status)
                .addString(provenance.principal()).addArrayOfFloat(vector).addUUID(provenance.conversation().orElse(null));
        return store.preparedQuery(INSERT_LEARNING).execute(values)
                .flatMap(rows -> rows.size() > 0
                        ? Uni.createFrom().<Saved> item(new Saved.Stored(rows.iterator().next().getLong("id"), status))
                                .invoke(id -> countSaved("learning", category))
                        // Saved by someone else since the look-up: the same learning, stored once.
                        : store.preparedQuery(SAME_LEARNING).execute(Tuple.of(title, category))
                                .map(found -> {
                                    throw alreadyKnown(found.iterator().next(), category);
                                }));
    }

    private static ToolException alreadyKnown(Row row, String category) {
        String status = row.getString("status");
        return new ToolException("This learning is already known: '" + row.getString("title") + "' (" + category + ", id "
                + row.getLong("id") + (status.equals("approved") ? "" : ", " + status) + "); it was not saved again.");
    }

    /**
     * Saves a query pattern the agent validated ({@code shape}: what its result looked like then),
     * {@linkplain #newStatus() approved or proposed}; fails with a {@link ToolException} when a
     * pattern with the same question or the same name exists.
     */
    public Uni<Saved> saveAgentPattern(KnowledgeFile.Pattern pattern, Provenance provenance, ResultShape shape) {
        String status = newStatus();
        Tuple values = patternValues(pattern, "agent", null, provenance.conversationId().orElse(null))
                .addString(status).addString(provenance.principal()).addValue(new JsonArray(shape.columns().toString()))
                .addInteger(shape.rows()).addString(shape.digest()).addUUID(provenance.conversation().orElse(null));
        return ready().flatMap(ok -> store.preparedQuery(INSERT_AGENT_PATTERN).execute(values))
                .flatMap(rows -> rows.size() > 0
                        ? Uni.createFrom().<Saved> item(new Saved.Stored(rows.iterator().next().getLong("id"), status))
                                .invoke(id -> countSaved("query_pattern", "validated_query"))
                        : store.preparedQuery(SAME_PATTERN)
                                .execute(Tuple.of(pattern.name(), pattern.question()))
                                .map(KnowledgeStore::duplicatePattern));
    }

    private static Saved duplicatePattern(RowSet<Row> found) {
        if (found.size() == 0) {
            // Deleted between the insert and the look-up: rare, and a retry will do.
            throw new ToolException("The query pattern could not be saved because of a concurrent change; try again.");
        }
        Row row = found.iterator().next();
        if (row.getBoolean("same_question")) {
            throw new ToolException("A validated query for this question already exists: '" + row.getString("name")
                    + "' (id " + row.getLong("id") + ")");
        }
        throw new ToolException("A query pattern named '" + row.getString("name") + "' already exists (id "
                + row.getLong("id") + "); choose another name.");
    }

    /**
     * Inserts or updates a pattern from a knowledge file, by name. Returns {@code false} when the
     * name belongs to a pattern the agent saved, which a file does not overwrite.
     */
    public Uni<Boolean> upsertFilePattern(KnowledgeFile.Pattern pattern, String sourceFile) {
        return store.preparedQuery(UPSERT_FILE_PATTERN)
                .execute(patternValues(pattern, "file", sourceFile, null))
                .map(rows -> rows.size() > 0);
    }

    /** Inserts or updates a table note ({@code table}) or business rule ({@code rule}) from a knowledge file. */
    public Uni<Void> upsertDoc(String kind, String name, String body, String sourceFile) {
        return store.preparedQuery(UPSERT_DOC)
                .execute(Tuple.of(kind, name, body, sourceFile))
                .replaceWithVoid();
    }

    private static Tuple patternValues(KnowledgeFile.Pattern pattern, String source, String sourceFile, String conversationId) {
        return Tuple.tuple().addString(pattern.name()).addString(pattern.question()).addString(pattern.sql())
                .addString(pattern.summary()).addArrayOfString(pattern.tablesUsed().toArray(String[]::new))
                .addString(pattern.dataQualityNotes()).addString(source).addString(sourceFile).addString(conversationId);
    }

    private Uni<Boolean> ready() {
        if (!migrations.ready()) {
            return Uni.createFrom().failure(new ToolException(
                    "The knowledge base is not available: the store's schema could not be brought up to date (see the service log)."));
        }
        return Uni.createFrom().item(true);
    }
}
