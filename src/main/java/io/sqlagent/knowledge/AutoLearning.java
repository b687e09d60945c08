package io.sqlagent.knowledge;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.logging.Log;
import io.sqlagent.Caller;
import io.sqlagent.MessageText;
import io.sqlagent.sql.guard.SqlLiterals;
import io.sqlagent.sql.run.SqlErrorOccurred;
import io.sqlagent.tool.Outcome;
import io.sqlagent.tool.ToolCallListener;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolExecution;

/**
 * Learns from mistakes the agent fixed: a statement PostgreSQL rejected ({@link SqlErrorOccurred})
 * is remembered for its conversation; when a later {@code run_sql} in that conversation succeeds,
 * the error and the query that worked are saved as a learning (source {@code auto}), its category
 * from the SQLSTATE. The same error is saved once (title + category are the learning's identity), and
 * not at all when a stored learning says the same in other words; it is a proposal while
 * {@code sqlagent.learning.approval=required}.
 * Errors that say nothing about the query — cancellations, timeouts, lost connections, lack of
 * resources — are not learned.
 */
@ApplicationScoped
public class AutoLearning implements ToolCallListener {

    static final String SOURCE = "auto";
    private static final int MAX_CONVERSATIONS = 10_000;
    private static final int MAX_ERRORS_PER_CONVERSATION = 5;
    private static final Duration FORGET_AFTER = Duration.ofMinutes(30);
    private static final int MAX_SQL_IN_DESCRIPTION = 500;

    private final KnowledgeStore store;
    private final boolean enabled;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();

    /** Errors not yet recovered from, in one conversation. */
    private record Pending(List<SqlErrorOccurred> errors, long since) {
    }

    AutoLearning(KnowledgeStore store, LearningConfig config) {
        this.store = store;
        this.enabled = config.enabled() && config.auto();
    }

    void onSqlError(@Observes SqlErrorOccurred error) {
        if (!enabled || error.conversationId().isEmpty() || category(error.sqlState()) == null) {
            return;
        }
        long now = System.nanoTime();
        if (pending.size() >= MAX_CONVERSATIONS) {
            pending.values().removeIf(entry -> now - entry.since() > FORGET_AFTER.toNanos());
            if (pending.size() >= MAX_CONVERSATIONS) {
                return;
            }
        }
        pending.compute(error.conversationId().get(), (id, entry) -> {
            List<SqlErrorOccurred> errors = entry == null ? new ArrayList<>() : new ArrayList<>(entry.errors());
            if (errors.size() < MAX_ERRORS_PER_CONVERSATION) {
                errors.add(error);
            }
            return new Pending(List.copyOf(errors), entry == null ? now : entry.since());
        });
    }

    @Override
    public void completed(ToolExecution execution) {
        if (!enabled || execution.outcome() != Outcome.SUCCESS || !"run_sql".equals(execution.call().name())
                || execution.context().conversationId().isEmpty()) {
            return;
        }
        String conversationId = execution.context().conversationId().get();
        Pending recovered = pending.remove(conversationId);
        if (recovered == null || System.nanoTime() - recovered.since() > FORGET_AFTER.toNanos()) {
            return;
        }
        String fixed = execution.call().arguments().path("sql").asText();
        for (SqlErrorOccurred error : recovered.errors()) {
            save(error, fixed, conversationId, execution.context().identity());
        }
    }

    /** What is learned from one error and the query that worked: title, description and SQL, with no value in them. */
    record Learned(String title, String description, String sql) {
    }

    /**
     * The learning an error and its fix come to. Learnings are shared by every principal once approved, so no value
     * the caller read (under its row-level security) goes in: literals and quoted values are masked, and so is a name
     * that is one of the statements' literal values or does not read as a name (a value written where a name belongs).
     */
    static Learned learned(SqlErrorOccurred error, String fixed) {
        Set<String> values = SqlLiterals.values(error.message(), error.sql(), fixed);
        String problem = SqlLiterals.maskMessage(firstLine(error.message()), values);
        String description = "A query failed with SQLSTATE " + error.sqlState() + " (" + problem
                + ") and worked once rewritten. "
                + "The failing query was: " + truncate(SqlLiterals.mask(error.sql(), values).strip(), MAX_SQL_IN_DESCRIPTION)
                + " — the query that worked is attached.";
        return new Learned(truncate(problem, 100), description, SqlLiterals.mask(fixed, values));
    }

    private void save(SqlErrorOccurred error, String fixed, String conversationId, Caller caller) {
        String category = category(error.sqlState());
        Learned learned = learned(error, fixed);
        String title = learned.title();
        Provenance provenance = new Provenance(SOURCE, caller.name(), Optional.of(conversationId));
        store.saveLearning(title, learned.description(), category, learned.sql(), provenance, KnowledgeReader.of(caller))
                .subscribe().with(
                        saved -> Log.debugf("Auto-learning from conversation %s: %s (%s)", conversationId, title, saved),
                        failure -> {
                            if (failure instanceof ToolException) {
                                Log.debugf("Auto-learning not saved: %s", failure.getMessage()); // already known
                            } else {
                                Log.warnf("Auto-learning could not be saved: %s", failure.getMessage());
                            }
                        });
    }

    /**
     * The learning category of a SQLSTATE, or null when the error is not about the query: wrong
     * names are schema fixes, type and cast problems type errors, other data exceptions data
     * quality, the rest (syntax, grouping, ...) query patterns.
     */
    static String category(String sqlState) {
        if (sqlState == null || sqlState.length() != 5) {
            return null;
        }
        String state = sqlState.toUpperCase(Locale.ROOT);
        String errorClass = state.substring(0, 2);
        switch (state) {
            case "42703", "42P01", "42702", "42P02", "42704", "3F000", "42P09":
                return "schema_fix";
            case "42804", "42883", "42846", "42725", "22P02", "22007", "22008", "2200G":
                return "type_error";
            default:
                break;
        }
        switch (errorClass) {
            case "22":
                return "data_quality";
            case "42", "21", "2F", "0A":
                return "query_pattern";
            default:
                // 57 (cancelled, timeout), 08 (connection), 53 (resources), 40 (rollbacks), 25/28/XX ...
                return null;
        }
    }

    private static String firstLine(String message) {
        String text = message == null ? "SQL error" : message.strip();
        int newline = text.indexOf('\n');
        text = newline < 0 ? text : text.substring(0, newline).strip();
        int state = text.indexOf(" (SQLSTATE ");
        return state > 0 ? text.substring(0, state) : text;
    }

    private static String truncate(String text, int max) {
        return MessageText.shorten(text, max - 1);
    }
}
