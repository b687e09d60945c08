package io.sqlagent.knowledge;

import java.time.OffsetDateTime;

import io.vertx.mutiny.sqlclient.Row;

/**
 * A query pattern ({@code query_pattern}): one from a knowledge file, or a validated query the agent
 * saved, with its review state, provenance and the shape of its result when it was last checked.
 * Read and written by plain SQL ({@link KnowledgeItems}); the generated {@code search} column is the store's
 * business, ranked by the searches' SQL.
 */
public class QueryPattern extends ReviewedItem {

    public String name;
    public String question;
    public String summary;
    public String[] tablesUsed;
    public String dataQualityNotes;
    public String sourceFile;
    /** {@code [{"name", "type"}]} of the result, as JSON text (jsonb in the store). */
    public String resultColumns;
    public Integer resultRows;
    public String resultDigest;
    public String checkStatus;
    public String checkMessage;
    public OffsetDateTime checkedAt;

    /** The pattern a row of {@link KnowledgeItems#PATTERN_COLUMNS} holds. */
    static QueryPattern of(Row row) {
        QueryPattern pattern = new QueryPattern();
        pattern.read(row);
        pattern.name = row.getString("name");
        pattern.question = row.getString("question");
        pattern.summary = row.getString("summary");
        pattern.tablesUsed = row.getArrayOfStrings("tables_used");
        pattern.dataQualityNotes = row.getString("data_quality_notes");
        pattern.sourceFile = row.getString("source_file");
        pattern.resultColumns = row.getString("result_columns");
        pattern.resultRows = row.getInteger("result_rows");
        pattern.resultDigest = row.getString("result_digest");
        pattern.checkStatus = row.getString("check_status");
        pattern.checkMessage = row.getString("check_message");
        pattern.checkedAt = row.getOffsetDateTime("checked_at");
        return pattern;
    }

    @Override
    KnowledgeItemId itemId() {
        return KnowledgeItemId.query(id);
    }
}
