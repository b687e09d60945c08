package io.sqlagent.builtin;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.event.Event;
import jakarta.inject.Singleton;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.CancelSafe;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.StatementCheck;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.sql.guard.StatementKind;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.run.SqlErrorOccurred;
import io.sqlagent.sql.run.SqlExecutionException;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceChoice;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.TypedTool;

/**
 * {@code run_sql}: the agent's read-only SQL. The statement passes the parser-based guard and the
 * table policy first (a refusal is a blocked call with the reason), then runs through {@link QueryRunner} in a
 * read-only transaction with limits. PostgreSQL's errors go back to the model with code and
 * position, and are announced as {@link SqlErrorOccurred}.
 */
@Singleton
@ToolDefinition(name = "run_sql", title = "Run SQL", namespace = "sql", tags = { "sql", "query",
        "database" }, readOnly = true, auditArguments = true, description = "Execute a SQL query against the database. Only SELECT and WITH statements are allowed. Returns query results as JSON.", returns = "{\"columns\":[{\"name\",\"type\",\"key\"}],\"rows\":[{key: value}],\"row_count\":n,\"total_rows\":n,"
                + "\"truncated\":bool}; each row holds a column's value under that column's key (a repeated name gets name_2, name_3, ...); "
                + "total_rows counts the rows read, which stops one past the row limit or at the size cap", usage = "Inspect the schema first; add LIMIT for exploratory queries.")
public class RunSqlTool extends TypedTool<RunSqlTool.Arguments> {

    private final SourceChoice sources;
    private final QueryRunner runner;
    private final SqlGuard guard;
    /** The statement kinds allowed ({@code sqlagent.sql.allowed-statements}), for the other engines' checks. */
    private final Set<StatementKind> allowed;
    /** The statement check of each other engine, made on its first statement. */
    private final Map<Engine, StatementCheck> checks = new ConcurrentHashMap<>();
    private final TablePolicy tables;
    private final Event<SqlErrorOccurred> sqlErrors;

    RunSqlTool(SourceChoice sources, QueryRunner runner, SqlConfig config, SqlGuard guard, TablePolicy tables,
            Event<SqlErrorOccurred> sqlErrors) {
        this.allowed = StatementKind.parseAll(config.allowedStatements());
        this.sources = sources;
        this.runner = runner;
        this.guard = guard;
        this.tables = tables;
        this.sqlErrors = sqlErrors;
    }

    /** Arguments of {@code run_sql}. */
    public record Arguments(
            @Param(description = "The SQL query to execute. Must be a SELECT or WITH statement.", minLength = 1, maxLength = 100_000) String sql,
            @Param(description = SourceArgument.DESCRIPTION, maxLength = 200) Optional<String> source) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        Source source = sources.choose(arguments.source(), context.identity());
        // The verdict comes back on a worker thread, as the caller's cancel may: CancelSafe keeps that cancel.
        return CancelSafe.then(check(source, arguments.sql()), verdict -> {
            Optional<String> refused = refusal(source, verdict);
            if (refused.isPresent()) {
                return Uni.createFrom().failure(new ToolRefusedException(refused.get()));
            }
            return runner.run(source, arguments.sql(), context);
        })
                .onFailure(SqlExecutionException.class)
                .invoke(failure -> announce(source, (SqlExecutionException) failure, context));
    }

    /**
     * The verdict of the source's engine: PostgreSQL's guard (which remembers what it allowed), or the engine's own
     * check in its dialect, on a worker thread either way.
     */
    private Uni<SqlVerdict> check(Source source, String sql) {
        if (source.isPostgres()) {
            return guard.checkOffEventLoop(sql);
        }
        StatementCheck check = checks.computeIfAbsent(source.engine(), engine -> engine.statementCheck(allowed));
        return Uni.createFrom().item(() -> check.check(sql)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    /**
     * Why the statement may not run: on PostgreSQL a table it names that the policy refuses, then the guard's reason
     * (its plan is checked as it runs); on another engine the check's reason, and the policy on what the statement
     * reads as it runs, where names are resolved in the source's database ({@code EngineReadCheck}).
     */
    private Optional<String> refusal(Source source, SqlVerdict verdict) {
        if (source.isPostgres()) {
            return tables.refusal(verdict);
        }
        return verdict.allowed() ? Optional.empty() : Optional.of(verdict.reason());
    }

    private void announce(Source source, SqlExecutionException failure, ToolCallContext context) {
        sqlErrors.fire(new SqlErrorOccurred(source.name(), failure.sql(), failure.sqlState(), failure.getMessage(),
                context.conversationId()));
    }
}
