package io.sqlagent.sql.engine.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.sql.guard.StatementKind;

/** The MySQL/MariaDB statement check against its corpus of allowed statements and attacks. */
class MySqlGuardCorpusTest {

    private static final MySqlGuard GUARD = new MySqlGuard();

    static List<GuardCorpus.Case> allowed() {
        return GuardCorpus.allowed();
    }

    static List<GuardCorpus.Case> refused() {
        return GuardCorpus.refused();
    }

    @Test
    void theCorpusHoldsAtLeastSixtyCasesOfBothKinds() {
        assertThat(GuardCorpus.cases()).hasSizeGreaterThanOrEqualTo(60);
        assertThat(allowed()).hasSizeGreaterThanOrEqualTo(30);
        assertThat(refused()).hasSizeGreaterThanOrEqualTo(30);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allowed")
    void allows(GuardCorpus.Case example) {
        SqlVerdict verdict = GUARD.check(example.sql());

        assertThat(verdict.allowed()).as("%s: %s", example.expectation(), verdict.reason()).isTrue();
        assertThat(verdict.reason()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesWithTheReasonNamed(GuardCorpus.Case example) {
        SqlVerdict verdict = GUARD.check(example.sql());

        assertThat(verdict.allowed()).as("refused: %s", example.sql()).isFalse();
        assertThat(verdict.reason()).containsIgnoringCase(example.expectation());
    }

    @Test
    void reportsTheTablesAndFunctionsAQueryReads() {
        SqlVerdict verdict = GUARD.check("SELECT c.name, COUNT(*) FROM `Customers` c JOIN shop.orders o "
                + "ON o.customer_id = c.id WHERE c.id IN (SELECT customer_id FROM big_orders) GROUP BY c.name");

        assertThat(verdict.allowed()).isTrue();
        assertThat(verdict.kind()).contains(StatementKind.SELECT);
        assertThat(verdict.tables()).containsExactlyInAnyOrder("customers", "shop.orders", "big_orders");
        assertThat(verdict.functions()).contains("count");
    }

    @Test
    void showAndDescribeAreExplainKindAndNameTheirTable() {
        assertThat(GUARD.check("SHOW COLUMNS FROM shop.customers").tables()).containsExactly("shop.customers");
        assertThat(GUARD.check("DESCRIBE `orders`").kind()).contains(StatementKind.EXPLAIN);
        assertThat(GUARD.check("EXPLAIN SELECT * FROM orders").tables()).containsExactly("orders");
    }

    @Test
    void withoutExplainOnlyQueriesPass() {
        MySqlGuard selectOnly = new MySqlGuard(EnumSet.of(StatementKind.SELECT));

        assertThat(selectOnly.check("SELECT 1").allowed()).isTrue();
        assertThat(selectOnly.check("SHOW TABLES").reason()).contains("SHOW and DESCRIBE statements are not allowed");
        assertThat(selectOnly.check("EXPLAIN SELECT 1").allowed()).isFalse();
    }

    @Test
    void neverThrowsOnHostileInput() {
        for (String sql : new String[] { null, "", "   ", "`", "'", "\"", "@", "@@", "/*", "#", "((((((((((", ")",
                "SELECT " + "(".repeat(3000) + "1" + ")".repeat(3000), "SELECT 'x" + "\\".repeat(10),
                "SELECT 1 ".repeat(30_000) }) {
            assertThat(GUARD.check(sql).allowed()).as(String.valueOf(sql)).isFalse();
        }
    }
}
