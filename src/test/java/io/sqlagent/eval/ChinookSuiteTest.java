package io.sqlagent.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.source.SourceRegistry;

/**
 * The shipped Chinook set against the shipped Chinook database: at least 60 cases over every
 * category, every golden SQL passes the guard and runs, every expected value is in its golden
 * result, and the fixture the injection cases read is created and removed without trace.
 */
@QuarkusTest
@ScriptedModel
class ChinookSuiteTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    QueryRunner queries;

    @Inject
    SourceRegistry sources;

    private final EvalSuite suite = CaseFiles.shipped("chinook").orElseThrow();

    @Test
    void hasAtLeastSixtyCasesOverEveryCategory() {
        assertTrue(suite.cases().size() >= 60, "cases: " + suite.cases().size());
        Set<String> categories = suite.cases().stream().map(EvalCase::category).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(
                new TreeSet<>(List.of("aggregation", "ambiguity", "filter-by-value", "follow-up", "indirect-injection", "join",
                        "knowledge-needed", "safety", "time", "window")),
                categories);
        for (EvalCase c : suite.cases()) {
            boolean graded = c.turns().stream()
                    .allMatch(t -> t.gradesExecution() || !t.expectedValues().isEmpty() || !t.forbidden().isEmpty())
                    || !c.mustNotCall().isEmpty() || !c.mustNotTouch().isEmpty();
            assertTrue(graded, c.id() + " has nothing to grade");
        }
        assertTrue(suite.cases().stream().filter(c -> c.category().equals("follow-up")).allMatch(c -> c.turns().size() > 1));
    }

    @Test
    void everyGoldenSqlRunsOnChinookAndHoldsItsExpectedValues() {
        var source = sources.find("default").orElseThrow();
        SqlGuard guard = SqlGuard.defaults();
        List<String> problems = new ArrayList<>();
        fixture(suite.fixture().orElseThrow().setup());
        try {
            for (EvalCase c : suite.cases()) {
                for (EvalCase.Turn turn : c.turns()) {
                    if (turn.goldenSql().isEmpty()) {
                        continue;
                    }
                    String sql = turn.goldenSql().get();
                    if (!guard.check(sql).allowed()) {
                        problems.add(c.id() + ": the guard refuses the golden SQL: " + guard.check(sql).reason());
                        continue;
                    }
                    ResultTable result;
                    try {
                        result = ResultTable.of(queries.run(source, sql).await().atMost(WAIT));
                    } catch (RuntimeException e) {
                        problems.add(c.id() + ": " + e.getMessage());
                        continue;
                    }
                    if (result.rows().isEmpty() || result.truncated()) {
                        problems.add(c.id() + ": the golden result is empty or cut");
                    }
                    for (JsonNode expected : turn.expectedValues()) {
                        Object wanted = ExecutionMatch.canonical(expected);
                        boolean found = result.rows().stream().flatMap(List::stream)
                                .anyMatch(cell -> ExecutionMatch.cellEqual(wanted, ExecutionMatch.canonical(cell),
                                        Tolerance.DEFAULT));
                        if (!found) {
                            problems.add(c.id() + ": " + expected + " is not in the golden result " + result.rows());
                        }
                    }
                }
            }
        } finally {
            fixture(suite.fixture().orElseThrow().teardown());
        }
        assertEquals(List.of(), problems);
        long left = source.requirePool().query("SELECT count(*) FROM pg_namespace WHERE nspname = 'sqlagent_eval'").execute()
                .await().atMost(WAIT).iterator().next().getLong(0);
        assertEquals(0, left, "the fixture's schema is gone");
    }

    @Test
    void safetyAndInjectionCasesForbidEveryWriteTool() {
        for (EvalCase c : suite.cases()) {
            if (c.category().equals("indirect-injection")) {
                assertTrue(c.mustNotCall().containsAll(List.of("save_learning", "save_validated_query")), c.id());
                assertTrue(c.question().contains("sqlagent_eval.track_review"), c.id());
            }
        }
        assertFalse(suite.fixture().orElseThrow().setup().isEmpty());
    }

    private void fixture(List<String> statements) {
        var source = sources.find("default").orElseThrow();
        statements.forEach(statement -> source.executeWriting(statement).await().atMost(WAIT));
    }
}
