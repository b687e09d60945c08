package io.sqlagent.knowledge;

import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolExecutor;
import io.sqlagent.tool.ToolForbiddenException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.ToolResult;
import io.sqlagent.tool.ToolUnavailableException;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Runs validated queries the way {@code run_sql} does — through the tool executor, so the guard, the
 * table policy, hidden columns, the read-only sandbox, the caller's scopes and database role and
 * the audit log all apply — before one is saved, and again when all are checked: one that no longer
 * runs is flagged {@code failed}, one whose result's digest changed {@code drifted}; flagged queries
 * are left out of {@code search_knowledge} until a later check finds them as they were.
 */
@ApplicationScoped
public class ValidatedQueries {

    /** At most this many queries are checked in one request, oldest check first. */
    static final int MAX_CHECKED = 1000;

    /** A check's outcome; the shape ($5..$7) only when the pattern had none (one saved before checks). */
    private static final String RECORD = """
            UPDATE query_pattern SET check_status = $2, check_message = $3, checked_at = $4,
                result_columns = CASE WHEN result_digest IS NULL AND CAST($5 AS text) IS NOT NULL THEN CAST(CAST($6 AS text) AS jsonb)
                                      ELSE result_columns END,
                result_rows = CASE WHEN result_digest IS NULL AND CAST($5 AS text) IS NOT NULL THEN $7 ELSE result_rows END,
                result_digest = coalesce(result_digest, CAST($5 AS text))
            WHERE id = $1""";

    private final ToolExecutor executor;
    private final Pool store;

    ValidatedQueries(ToolExecutor executor, Pool store) {
        this.executor = executor;
        this.store = store;
    }

    /**
     * Runs {@code sql} as {@code run_sql} would for {@code context}'s caller; the shape of its result,
     * or the refusal or failure as the matching {@link ToolException}.
     */
    public Uni<ResultShape> run(String sql, ToolCallContext context) {
        ToolCall call = new ToolCall("validate-" + UUID.randomUUID(), "run_sql",
                SnakeCaseJson.MAPPER.createObjectNode().put("sql", sql));
        return executor.execute(call, context).map(ValidatedQueries::shape);
    }

    private static ResultShape shape(ToolExecution execution) {
        if (execution.result() instanceof ToolResult.Success success) {
            return ResultShape.of(success.value());
        }
        String message = execution.result() instanceof ToolResult.Failure failure ? failure.message() : "it was stopped";
        throw switch (execution.outcome()) {
            case BLOCKED -> new ToolRefusedException(message);
            case FORBIDDEN -> new ToolForbiddenException(message);
            case UNAVAILABLE -> new ToolUnavailableException(message);
            default -> new ToolException("The query does not run, so it is not saved: " + message);
        };
    }

    /**
     * One query's check: {@code ok}, {@code failed}, {@code drifted}, or {@code skipped} (not run: the caller may not, or the
     * source is busy).
     */
    public record Check(String id, String name, String status, String message) {
    }

    /**
     * Runs every validated query that is not rejected (at most {@link #MAX_CHECKED}), records and returns what each came to.
     */
    public Uni<List<Check>> checkAll(ToolCallContext context) {
        return KnowledgeItems.patterns(store, "status <> 'rejected' ORDER BY checked_at NULLS FIRST, id LIMIT $1",
                (long) MAX_CHECKED)
                .flatMap(patterns -> Multi.createFrom().iterable(patterns)
                        .onItem().transformToUniAndConcatenate(pattern -> check(pattern, context))
                        .collect().asList());
    }

    private Uni<Check> check(QueryPattern pattern, ToolCallContext context) {
        long id = pattern.id;
        String name = pattern.name;
        String stored = pattern.resultDigest;
        return run(pattern.sql, context)
                .flatMap(shape -> {
                    boolean drifted = stored != null && !stored.equals(shape.digest());
                    String status = drifted ? "drifted" : "ok";
                    String message = drifted ? "Its result changed since it was validated (" + shape.rows() + " rows now)"
                            : null;
                    return record(id, status, message, shape).replaceWith(new Check(KnowledgeItemId.query(id).toString(), name,
                            status, message));
                })
                .onFailure(failure -> failure instanceof ToolForbiddenException || failure instanceof ToolUnavailableException)
                .recoverWithItem(
                        failure -> new Check(KnowledgeItemId.query(id).toString(), name, "skipped", failure.getMessage()))
                .onFailure(ToolException.class)
                .recoverWithUni(failure -> record(id, "failed", failure.getMessage(), null)
                        .replaceWith(new Check(KnowledgeItemId.query(id).toString(), name, "failed", failure.getMessage())));
    }

    /** Records a check; a query that had no result shape yet (one saved before checks) keeps this one's. */
    private Uni<Void> record(long id, String status, String message, ResultShape shape) {
        // A pattern deleted meanwhile matches no row: nothing to record.
        return store.preparedQuery(RECORD).execute(Tuple.from(new Object[] { id, status, message, OffsetDateTime.now(),
                shape == null ? null : shape.digest(), shape == null ? null : shape.columns().toString(),
                shape == null ? null : shape.rows() }))
                .replaceWithVoid();
    }

    /** The answer of a check: counts by status and the queries that are not {@code ok}. */
    public static Map<String, Object> summary(List<Check> checks) {
        Map<String, Object> counts = new LinkedHashMap<>();
        for (String status : List.of("ok", "failed", "drifted", "skipped")) {
            counts.put(status, checks.stream().filter(check -> check.status().equals(status)).count());
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("checked", checks.size());
        answer.put("counts", counts);
        answer.put("flagged", checks.stream().filter(check -> !check.status().equals("ok")).map(check -> {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", check.id());
            item.put("name", check.name());
            item.put("status", check.status());
            item.put("message", check.message());
            return item;
        }).toList());
        return answer;
    }
}
