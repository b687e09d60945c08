package io.sqlagent.sql.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.sqlagent.sql.engine.mysql.MySqlEngine;
import io.sqlagent.sql.engine.mysql.MySqlGuard;
import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.tool.ToolRefusedException;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.sqlclient.PoolOptions;

/**
 * The table policy and hidden columns on what a statement reads on a real MariaDB, as the source's account in the
 * engine's read-only session: a denied table ({@code pol_ledger}) and a hidden column ({@code pol_customer.email})
 * refused however they are spelled or reached (quoting, case, schema-qualified, aliases, subqueries, UNION, CTEs,
 * derived tables, views merged or not, views over views, {@code *}, {@code t.*}, natural joins, functions over the
 * column, a constant row the optimiser reads ahead), a view whose reads cannot be known refused, and what avoids them
 * allowed and run. MariaDB's {@code EXPLAIN} would miss some of these ("Select tables
 * optimized away" for {@code MAX(id)} of a view); the statements run afterwards as root show what each refusal kept back.
 */
class MariaDbReadPolicyTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final Engine ENGINE = MySqlEngine.mariaDb();
    private static final MySqlGuard GUARD = new MySqlGuard();
    private static final EngineReadCheck CHECK = new EngineReadCheck(
            new TablePolicy(Optional.empty(), Optional.of(List.of("pol_ledger")), true),
            new ColumnPolicy(Optional.of(List.of("pol_customer.email"))));

    private static Vertx vertx;
    private static Pool agent;

    @BeforeAll
    static void tables() {
        MariaDbServer server = MariaDbServer.get();
        server.root("""
                CREATE DATABASE IF NOT EXISTS other;
                GRANT SELECT ON other.* TO 'agent'@'%';
                USE shop;
                CREATE OR REPLACE TABLE pol_customer (id INT PRIMARY KEY, name VARCHAR(40), email VARCHAR(80));
                INSERT INTO pol_customer VALUES (1, 'Ann', 'ann@example.com'), (2, 'Bob', 'bob@example.com');
                CREATE OR REPLACE TABLE pol_ledger (id INT PRIMARY KEY, amount INT);
                INSERT INTO pol_ledger VALUES (1, 100), (2, 250);
                CREATE OR REPLACE TABLE pol_probe (id INT PRIMARY KEY, email VARCHAR(80));
                INSERT INTO pol_probe VALUES (1, 'ann@example.com');
                CREATE OR REPLACE TABLE pol_orders (id INT PRIMARY KEY, customer_id INT, total INT);
                INSERT INTO pol_orders VALUES (1, 1, 10), (2, 2, 20);
                CREATE OR REPLACE VIEW pol_contacts AS SELECT id, email AS contact FROM pol_customer;
                CREATE OR REPLACE ALGORITHM = TEMPTABLE VIEW pol_contacts_tmp AS SELECT id, email FROM pol_customer;
                CREATE OR REPLACE VIEW pol_over AS SELECT contact, UPPER(contact) AS u FROM pol_contacts;
                CREATE OR REPLACE VIEW pol_names AS SELECT id, name FROM pol_customer;
                CREATE OR REPLACE VIEW pol_amounts AS SELECT id, amount FROM pol_ledger;
                DROP FUNCTION IF EXISTS pol_total;
                CREATE FUNCTION pol_total() RETURNS INT READS SQL DATA RETURN (SELECT SUM(amount) FROM pol_ledger);
                CREATE OR REPLACE VIEW pol_by_function AS SELECT pol_total() AS total;
                CREATE OR REPLACE VIEW pol_by_qualified AS SELECT shop.pol_total() + 1 AS total, MAX(id) AS m FROM pol_orders;
                CREATE OR REPLACE TABLE other.pol_ledger (id INT PRIMARY KEY, amount INT);
                INSERT INTO other.pol_ledger VALUES (7, 7);
                CREATE OR REPLACE VIEW other.pol_blind AS SELECT id FROM shop.pol_ledger;
                """);
        vertx = Vertx.vertx();
        agent = Pool.newInstance(ENGINE.pool(vertx, server.agentUrl(), new PoolOptions().setMaxSize(2)));
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            agent.close().await().indefinitely();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    @Test
    void aDeniedTableIsRefusedHoweverItIsReached() {
        Map<String, String> refused = Map.ofEntries(
                Map.entry("SELECT * FROM pol_ledger", "Table pol_ledger is not available"),
                Map.entry("SELECT amount FROM `pol_ledger`", "pol_ledger"),
                Map.entry("SELECT amount FROM shop.pol_ledger", "pol_ledger"),
                Map.entry("SELECT amount FROM `shop`.`pol_ledger`", "pol_ledger"),
                Map.entry("SELECT AMOUNT FROM SHOP.POL_LEDGER", "pol_ledger"),
                Map.entry("SELECT l.amount FROM pol_orders o JOIN pol_ledger l ON l.id = o.id", "pol_ledger"),
                Map.entry("SELECT (SELECT MAX(id) FROM pol_ledger)", "pol_ledger"),
                Map.entry("SELECT id FROM pol_orders WHERE id IN (SELECT id FROM pol_ledger)", "pol_ledger"),
                Map.entry("SELECT id FROM pol_orders UNION SELECT amount FROM pol_ledger", "pol_ledger"),
                Map.entry("WITH l AS (SELECT amount FROM pol_ledger) SELECT SUM(amount) FROM l", "pol_ledger"),
                // EXPLAIN lists no table for this one ("Select tables optimized away").
                Map.entry("SELECT MAX(id) FROM pol_amounts", "Table pol_ledger is not available"),
                Map.entry("SELECT COUNT(*) FROM pol_amounts WHERE id = 1", "pol_ledger"),
                Map.entry("DESCRIBE pol_ledger", "pol_ledger"),
                Map.entry("SHOW COLUMNS FROM pol_ledger", "pol_ledger"),
                Map.entry("EXPLAIN SELECT * FROM pol_ledger", "pol_ledger"),
                Map.entry("SELECT total FROM pol_by_function", "stored function pol_total"),
                Map.entry("SELECT m FROM pol_by_qualified", "stored function shop.pol_total"),
                Map.entry("SELECT id FROM other.pol_blind", "definition cannot be read"),
                Map.entry("SELECT doc_id FROM information_schema.INNODB_FT_INDEX_TABLE",
                        "information_schema.INNODB_FT_INDEX_TABLE is not available"));
        refused.forEach((sql, reason) -> assertThat(refusal(sql)).as(sql).contains(reason));
    }

    @Test
    void aHiddenColumnIsRefusedHoweverItIsRead() {
        Map<String, String> refused = Map.ofEntries(
                Map.entry("SELECT email FROM pol_customer", "Column pol_customer.email is hidden"),
                Map.entry("SELECT `email` FROM pol_customer", "pol_customer.email"),
                Map.entry("SELECT EMAIL FROM pol_customer", "pol_customer.email"),
                Map.entry("SELECT c.email FROM pol_customer AS c", "pol_customer.email"),
                Map.entry("SELECT shop.pol_customer.email FROM shop.pol_customer", "pol_customer.email"),
                Map.entry("SELECT `c`.`EMAIL` FROM `shop`.`pol_customer` `c`", "pol_customer.email"),
                Map.entry("SELECT * FROM pol_customer", "* reads every column of pol_customer"),
                Map.entry("SELECT c.* FROM pol_customer c", "c.* reads every column of pol_customer"),
                Map.entry("SELECT id, * FROM pol_customer", "pol_customer.email"),
                Map.entry("SELECT DISTINCT * FROM pol_customer", "pol_customer.email"),
                Map.entry("SELECT id FROM pol_customer WHERE email LIKE 'a%'", "pol_customer.email"),
                Map.entry("SELECT id FROM pol_customer ORDER BY email", "pol_customer.email"),
                Map.entry("SELECT UPPER(email), LENGTH(email) FROM pol_customer", "pol_customer.email"),
                Map.entry("SELECT GROUP_CONCAT(email) FROM pol_customer", "pol_customer.email"),
                Map.entry("SELECT x.e FROM (SELECT email AS e FROM pol_customer) x", "pol_customer.email"),
                Map.entry("SELECT * FROM (SELECT id FROM pol_customer) d", "pol_customer.email"),
                Map.entry("WITH q AS (SELECT email FROM pol_customer) SELECT * FROM q", "pol_customer.email"),
                Map.entry("SELECT id FROM pol_customer UNION SELECT email FROM pol_customer", "pol_customer.email"),
                Map.entry("SELECT (SELECT email FROM pol_customer WHERE id = 1)", "pol_customer.email"),
                Map.entry("SELECT id FROM pol_customer NATURAL JOIN pol_probe", "NATURAL JOIN reads every column"),
                Map.entry("SELECT contact FROM pol_contacts", "read through view pol_contacts"),
                // A constant row: the optimiser reads it ahead and puts the value in place of the column.
                Map.entry("SELECT contact FROM pol_contacts WHERE id = 1", "pol_customer.email"),
                Map.entry("SELECT email FROM pol_contacts_tmp", "pol_customer.email"),
                Map.entry("SELECT id FROM pol_contacts_tmp", "read through view pol_contacts_tmp"),
                Map.entry("SELECT u FROM pol_over", "read through view pol_over"),
                Map.entry("EXPLAIN SELECT email FROM pol_customer", "pol_customer.email"));
        refused.forEach((sql, reason) -> assertThat(refusal(sql)).as(sql).contains(reason));
    }

    @Test
    void whatAvoidsThePolicyRuns() {
        List<String> allowed = List.of(
                "SELECT id, name FROM pol_customer ORDER BY id",
                "SELECT COUNT(*) FROM pol_customer",
                "SELECT id * 2, id*2 FROM pol_customer",
                "SELECT name FROM pol_names",
                "SELECT o.total FROM pol_orders o JOIN pol_customer c ON c.id = o.customer_id",
                "SELECT o.* FROM pol_orders o",
                "SELECT email FROM pol_probe",
                "SELECT amount FROM other.pol_ledger",
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'pol_customer'",
                "DESCRIBE pol_customer",
                "SELECT 1");
        for (String sql : allowed) {
            assertThat(refusal(sql)).as(sql).isEmpty();
        }
    }

    @Test
    void theRefusalsKeepBackWhatTheStatementsWouldShow() {
        // Past the check, as root: what the refused statements read.
        MariaDbServer server = MariaDbServer.get();
        assertThat(server.root("SELECT MAX(id) FROM shop.pol_amounts").strip()).isEqualTo("2");
        assertThat(server.root("SELECT contact FROM shop.pol_contacts WHERE id = 1").strip())
                .isEqualTo("ann@example.com");
        assertThat(server.root("SELECT total FROM shop.pol_by_function").strip()).isEqualTo("350");
        assertThat(server.root("EXPLAIN FORMAT=JSON SELECT MAX(id) FROM shop.pol_amounts"))
                .contains("Select tables optimized away").doesNotContain("pol_ledger");
    }

    /** Why the check refuses {@code sql} as the source's account, or "" when it allows it. */
    private static String refusal(String sql) {
        SqlVerdict verdict = GUARD.check(sql);
        assertThat(verdict.allowed()).as("the statement check allows " + sql + ": " + verdict.reason()).isTrue();
        Throwable failure = catchThrowable(() -> agent.withConnection(connection -> opened(connection)
                .flatMap(ignored -> CHECK.check(connection, ENGINE, sql, verdict))
                .eventually(() -> connection.query("ROLLBACK").execute()))
                .await().atMost(LIMIT));
        if (failure == null) {
            return "";
        }
        assertThat(failure).as(sql).isInstanceOf(ToolRefusedException.class);
        return failure.getMessage();
    }

    private static Uni<Void> opened(SqlConnection connection) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (String statement : ENGINE.session().open(true, LIMIT)) {
            chain = chain.flatMap(ignored -> connection.query(statement).execute().replaceWithVoid());
        }
        return chain;
    }
}
