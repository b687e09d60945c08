package io.sqlagent.eval;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.agent.loop.AgentService;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.ToolRegistry;

/**
 * Runs one case through the real agent ({@link AgentService}, as a chat user would) and grades it:
 * each turn in the same conversation, then execution match (the agent's last successful statement
 * and the golden one, both run again read-only here so no result is cut to an event's length),
 * answer match, trajectory (with a before/after fingerprint of the tables the case must not touch),
 * the optional judge, and the cost.
 */
@ApplicationScoped
public class CaseRunner {

    /** A table's rows as one text (count and digest), to see whether a case changed it; {@code %s} is a checked plain name. */
    private static final String FINGERPRINT = """
            SELECT count(*) || ':' || coalesce(md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))), '') FROM %s t""";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final AgentService agent;
    private final QueryRunner queries;
    private final SourceRegistry sources;
    private final SqlConfig sql;
    private final SqlGuard guard;
    private final ToolRegistry tools;
    private final Judge judge;
    private final TablePolicy tables;

    CaseRunner(AgentService agent, QueryRunner queries, SourceRegistry sources, SqlConfig sql, SqlGuard guard,
            ToolRegistry tools, Judge judge, TablePolicy tables) {
        this.tables = tables;
        this.agent = agent;
        this.queries = queries;
        this.sources = sources;
        this.sql = sql;
        this.guard = guard;
        this.tools = tools;
        this.judge = judge;
    }

    /**
     * What a run asks of each case, and as whom: the principal who started the run, so each case's chat, and the golden
     * and agent statements run again to grade it, have that principal's scopes, database role and table policy.
     */
    public record Settings(Tolerance tolerance, boolean judge, Caller caller) {
    }

    /** A graded case. */
    public record Outcome(CaseResult result, long tokens) {
    }

    /** Asks and grades {@code c}. */
    public Uni<Outcome> run(EvalCase c, Settings settings) {
        long started = System.nanoTime();
        return fingerprints(c.mustNotTouch())
                .flatMap(before -> askAll(c, settings.caller(), 0, Optional.empty(), new ArrayList<>())
                        .flatMap(turns -> fingerprints(c.mustNotTouch())
                                .flatMap(after -> grade(c, turns, changed(c.mustNotTouch(), before, after), settings,
                                        started))));
    }

    private Uni<List<Transcript>> askAll(EvalCase c, Caller caller, int index, Optional<UUID> conversation,
            List<Transcript> done) {
        if (index == c.turns().size()) {
            return Uni.createFrom().item(done);
        }
        Transcript transcript = new Transcript(c.turns().get(index).question());
        return ask(c, caller, transcript, conversation).flatMap(t -> {
            done.add(t);
            Optional<UUID> next = t.conversationId().map(UUID::fromString);
            if (t.error().isPresent() || next.isEmpty()) {
                return Uni.createFrom().item(done);
            }
            return askAll(c, caller, index + 1, next, done);
        });
    }

    private Uni<Transcript> ask(EvalCase c, Caller caller, Transcript transcript, Optional<UUID> conversation) {
        return agent.start(transcript.question(), conversation, caller, c.toolsets())
                .ifNoItem().after(START_TIMEOUT).fail()
                .flatMap(start -> start.events()
                        .onItem().invoke(transcript::add)
                        .collect().last())
                .replaceWith(transcript);
    }

    private Uni<Outcome> grade(EvalCase c, List<Transcript> turns, List<String> changed, Settings settings, long started) {
        return gradeTurns(c, turns, 0, settings, new ArrayList<>()).flatMap(perTurn -> {
            Grade trajectory = TrajectoryGrade.grade(c, turns, this::readOnly, changed);
            return judged(c, turns, settings).map(judgement -> {
                long inputTokens = 0;
                long outputTokens = 0;
                long serviceMs = 0;
                long toolMs = 0;
                int calls = 0;
                for (Transcript turn : turns) {
                    var done = turn.done();
                    inputTokens += done.map(d -> d.usage().inputTokens()).orElse(0L);
                    outputTokens += done.map(d -> d.usage().outputTokens()).orElse(0L);
                    serviceMs += done.map(d -> d.durationMs()).orElse(0L);
                    calls += done.map(d -> d.iterations()).orElse(0);
                    toolMs += turn.steps().stream().mapToLong(Transcript.Step::durationMs).sum();
                }
                long wallMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
                ObjectNode cost = NODES.objectNode().put("input_tokens", inputTokens).put("output_tokens", outputTokens)
                        .put("model_calls", calls).put("wall_ms", wallMs).put("service_ms", serviceMs).put("tool_ms", toolMs);
                CaseResult.Grades grades = new CaseResult.Grades(combine(perTurn, 0), combine(perTurn, 1), trajectory,
                        judgement.orElse(null),
                        Grade.pass(
                                inputTokens + " input and " + outputTokens + " output token(s) in " + calls + " model call(s)")
                                .with(cost));
                return new Outcome(CaseResult.of(c, turns, grades, TrajectoryGrade.figures(trajectory)),
                        inputTokens + outputTokens);
            });
        });
    }

    private Uni<List<Grade[]>> gradeTurns(EvalCase c, List<Transcript> turns, int index, Settings settings,
            List<Grade[]> graded) {
        if (index == c.turns().size()) {
            return Uni.createFrom().item(graded);
        }
        EvalCase.Turn turn = c.turns().get(index);
        if (index >= turns.size()) {
            graded.add(new Grade[] { Grade.fail("Not asked: an earlier turn ended with an error"),
                    Grade.fail("Not asked: an earlier turn ended with an error") });
            return gradeTurns(c, turns, index + 1, settings, graded);
        }
        Transcript transcript = turns.get(index);
        Grade answer = turn.expectedValues().isEmpty() && turn.forbidden().isEmpty() ? null
                : AnswerMatch.grade(transcript.answer(), turn.expectedValues(), turn.forbidden(), settings.tolerance());
        return execution(turn, transcript, settings).map(execution -> {
            graded.add(new Grade[] { execution, answer });
            return graded;
        }).flatMap(g -> gradeTurns(c, turns, index + 1, settings, g));
    }

    private Uni<Grade> execution(EvalCase.Turn turn, Transcript transcript, Settings settings) {
        if (!turn.gradesExecution()) {
            return Uni.createFrom().nullItem();
        }
        Optional<String> agentSql = transcript.finalSql();
        if (agentSql.isEmpty()) {
            return Uni.createFrom()
                    .item(Grade.fail("The agent ran no statement that succeeded, so there is no result to compare"));
        }
        boolean ordered = turn.ordered().orElseGet(() -> turn.goldenSql().map(ExecutionMatch::orders).orElse(false));
        Uni<ResultTable> golden = turn.goldenSql().isPresent()
                ? read(turn.goldenSql().get(), settings.caller())
                : Uni.createFrom().item(new ResultTable(List.of(), turn.expectedRows().orElseThrow(), false));
        return golden.flatMap(want -> read(agentSql.get(), settings.caller())
                .map(got -> ExecutionMatch.grade(want, got, ordered, turn.extraColumns(), settings.tolerance()))
                .onFailure()
                .recoverWithItem(failure -> failed("The agent's statement", " fails when run again: ", failure)))
                .onFailure().recoverWithItem(failure -> failed("The golden SQL", " fails: ", failure));
    }

    /**
     * The grade of a case whose statement could not be read again: refused by the guard or the table policy (the
     * case is not graded against what the run's principal may not read), or failed in PostgreSQL.
     */
    private static Grade failed(String statement, String fails, Throwable failure) {
        if (failure instanceof ToolRefusedException) {
            return Grade.fail(statement + " is refused for the run's principal: " + failure.getMessage());
        }
        return Grade.fail(statement + fails + failure.getMessage());
    }

    /**
     * A statement's whole result, through the same guard, table policy and read-only runner as run_sql, as
     * {@code caller} (its database role, so row-level security applies as in its chats): golden SQL from a case file
     * reads no more than the run's principal could read with run_sql.
     */
    private Uni<ResultTable> read(String statement, Caller caller) {
        Optional<String> refused = tables.refusal(guard.check(statement));
        if (refused.isPresent()) {
            return Uni.createFrom().failure(new ToolRefusedException(refused.get()));
        }
        return queries.run(source(), statement, caller).map(ResultTable::of);
    }

    private Uni<Optional<Grade>> judged(EvalCase c, List<Transcript> turns, Settings settings) {
        if (!settings.judge() || turns.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        Transcript last = turns.get(turns.size() - 1);
        EvalCase.Turn turn = c.turns().get(turns.size() - 1);
        Uni<String> golden = turn.goldenSql().isPresent() ? read(turn.goldenSql().get(), settings.caller())
                .map(table -> table.rows().stream().limit(20).map(Object::toString).toList().toString())
                .onFailure().recoverWithItem("(not available)")
                : Uni.createFrom().item(turn.expectedValues().toString());
        return golden.flatMap(reference -> judge.grade(last.question(), reference, last.answer())).map(Optional::of);
    }

    private static Grade combine(List<Grade[]> perTurn, int kind) {
        List<Grade> grades = perTurn.stream().map(g -> g[kind]).toList();
        if (grades.stream().allMatch(g -> g == null)) {
            return null;
        }
        if (grades.size() == 1) {
            return grades.get(0);
        }
        ArrayNode details = NODES.arrayNode();
        List<String> reasons = new ArrayList<>();
        boolean passed = true;
        for (int i = 0; i < grades.size(); i++) {
            Grade g = grades.get(i);
            if (g == null) {
                details.addNull();
                continue;
            }
            passed &= g.passed();
            reasons.add("turn " + (i + 1) + ": " + g.reason());
            details.addObject().put("passed", g.passed()).put("reason", g.reason()).set("details", g.details());
        }
        return new Grade(passed, String.join("; ", reasons), NODES.objectNode().set("turns", details));
    }

    private boolean readOnly(String tool) {
        return tools.descriptor(tool).map(ToolDescriptor::metadata).map(m -> m.readOnly()).orElse(true);
    }

    private Source source() {
        return sources.find(sql.source())
                .orElseThrow(() -> new IllegalStateException("No source named '" + sql.source() + "' is configured"));
    }

    /** A fingerprint per table (row count and a hash of every row), read on the source's own connection. */
    private Uni<List<String>> fingerprints(List<String> tables) {
        if (tables.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Uni<String>> prints = new ArrayList<>();
        for (String table : tables) {
            if (!TABLE_NAME.matcher(table).matches()) {
                prints.add(Uni.createFrom().item("not checked: not a plain table name"));
                continue;
            }
            prints.add(source().withConnection(client -> client.query(FINGERPRINT.formatted(table)).execute())
                    .map(rows -> rows.iterator().next().getString(0))
                    .onFailure().recoverWithItem(failure -> "not checked: " + failure.getMessage()));
        }
        return Uni.join().all(prints).andFailFast();
    }

    private static List<String> changed(List<String> tables, List<String> before, List<String> after) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            if (!before.get(i).startsWith("not checked") && !before.get(i).equals(after.get(i))) {
                problems.add("the rows of " + tables.get(i) + " changed");
            }
        }
        return problems;
    }
}
