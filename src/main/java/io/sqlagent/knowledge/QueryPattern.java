package io.sqlagent.knowledge;

import java.time.OffsetDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A query pattern ({@code query_pattern}): one from a knowledge file, or a validated query the agent
 * saved, with its review state, provenance and the shape of its result when it was last checked.
 * The generated {@code search} column stays unmapped; searches rank it with native queries.
 */
@Entity
@Table(name = "query_pattern")
public class QueryPattern extends ReviewedItem {

    public String name;
    public String question;
    public String summary;
    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "tables_used")
    public String[] tablesUsed;
    @Column(name = "data_quality_notes")
    public String dataQualityNotes;
    @Column(name = "source_file")
    public String sourceFile;
    /** {@code [{"name", "type"}]} of the result, as JSON text (jsonb in the store). */
    @Column(name = "result_columns")
    @ColumnTransformer(read = "CAST(result_columns AS text)", write = "CAST(CAST(? AS text) AS jsonb)")
    public String resultColumns;
    @Column(name = "result_rows")
    public Integer resultRows;
    @Column(name = "result_digest")
    public String resultDigest;
    @Column(name = "check_status")
    public String checkStatus;
    @Column(name = "check_message")
    public String checkMessage;
    @Column(name = "checked_at")
    public OffsetDateTime checkedAt;

    @Override
    KnowledgeItemId itemId() {
        return KnowledgeItemId.query(id);
    }
}
