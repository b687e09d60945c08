package io.sqlagent.knowledge;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The learnings and query patterns as {@link ReviewedItem}s, read and written with plain SQL on the store's
 * reactive client: what a review, a check or a save needs, column by column. The generated columns
 * ({@code search}, {@code dedup_key}) and the {@code embedding} are never read here.
 */
public final class KnowledgeItems {

    /** The columns both tables share, as {@link ReviewedItem#read} reads them. */
    private static final String SHARED = "id, sql, source, conversation_id, created_at, status, asked, proposed_by, reviewed_by, "
            + "reviewed_at, review_note";

    static final String LEARNING_COLUMNS = SHARED + ", title, description, category";

    /** {@code result_columns} is jsonb in the store and JSON text here. */
    static final String PATTERN_COLUMNS = SHARED + ", name, question, summary, tables_used, data_quality_notes, source_file, "
            + "CAST(result_columns AS text) AS result_columns, result_rows, result_digest, check_status, check_message, checked_at";

    private static final String UPDATE_LEARNING = """
            UPDATE learning SET sql = $2, status = $3, reviewed_by = $4, reviewed_at = $5, review_note = $6,
                title = $7, description = $8, category = $9
            WHERE id = $1""";

    private static final String UPDATE_PATTERN = """
            UPDATE query_pattern SET sql = $2, status = $3, reviewed_by = $4, reviewed_at = $5, review_note = $6,
                name = $7, question = $8, summary = $9, tables_used = $10, data_quality_notes = $11,
                result_columns = CAST(CAST($12 AS text) AS jsonb), result_rows = $13, result_digest = $14, check_status = $15,
                check_message = $16, checked_at = $17
            WHERE id = $1""";

    private KnowledgeItems() {
    }

    /** The item {@code id} names, when it is stored; locked for the transaction when {@code lock}. */
    static Uni<Optional<ReviewedItem>> find(SqlClient client, KnowledgeItemId id, boolean lock) {
        boolean learning = id.kind().equals(KnowledgeItemId.LEARNING);
        String sql = "SELECT " + (learning ? LEARNING_COLUMNS + " FROM learning" : PATTERN_COLUMNS + " FROM query_pattern")
                + " WHERE id = $1" + (lock ? " FOR UPDATE" : "");
        return client.preparedQuery(sql).execute(Tuple.of(id.number()))
                .map(rows -> all(rows, row -> learning ? (ReviewedItem) Learning.of(row) : QueryPattern.of(row)).stream()
                        .findFirst());
    }

    /** The learnings matching {@code where} (its parameters {@code $1...} bound to {@code values}). */
    public static Uni<List<Learning>> learnings(SqlClient client, String where, Object... values) {
        return client.preparedQuery("SELECT " + LEARNING_COLUMNS + " FROM learning WHERE " + where)
                .execute(Tuple.from(values)).map(rows -> all(rows, Learning::of));
    }

    /** The query patterns matching {@code where} (its parameters {@code $1...} bound to {@code values}). */
    public static Uni<List<QueryPattern>> patterns(SqlClient client, String where, Object... values) {
        return client.preparedQuery("SELECT " + PATTERN_COLUMNS + " FROM query_pattern WHERE " + where)
                .execute(Tuple.from(values)).map(rows -> all(rows, QueryPattern::of));
    }

    /** Writes what a review or a check may change of {@code item} (its decision, its edits, a query's result shape). */
    static Uni<Void> update(SqlClient client, ReviewedItem item) {
        Tuple values = Tuple.of(item.id, item.sql, item.status, item.reviewedBy, item.reviewedAt, item.reviewNote);
        if (item instanceof Learning learning) {
            return client.preparedQuery(UPDATE_LEARNING)
                    .execute(values.addString(learning.title).addString(learning.description).addString(learning.category))
                    .replaceWithVoid();
        }
        QueryPattern pattern = (QueryPattern) item;
        return client.preparedQuery(UPDATE_PATTERN).execute(values.addString(pattern.name).addString(pattern.question)
                .addString(pattern.summary).addArrayOfString(pattern.tablesUsed == null ? new String[0] : pattern.tablesUsed)
                .addString(pattern.dataQualityNotes).addString(pattern.resultColumns).addInteger(pattern.resultRows)
                .addString(pattern.resultDigest).addString(pattern.checkStatus).addString(pattern.checkMessage)
                .addValue(pattern.checkedAt)).replaceWithVoid();
    }

    /** Deletes the item {@code id} names; whether there was one. */
    static Uni<Boolean> delete(SqlClient client, KnowledgeItemId id) {
        String table = id.kind().equals(KnowledgeItemId.LEARNING) ? "learning" : "query_pattern";
        return client.preparedQuery("DELETE FROM " + table + " WHERE id = $1").execute(Tuple.of(id.number()))
                .map(rows -> rows.rowCount() > 0);
    }

    private static <T> List<T> all(RowSet<Row> rows, Function<Row, T> read) {
        List<T> items = new ArrayList<>(rows.size());
        rows.forEach(row -> items.add(read.apply(row)));
        return items;
    }
}
