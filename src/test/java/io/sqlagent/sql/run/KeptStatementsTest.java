package io.sqlagent.sql.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.engine.postgres.PgStatementCache;
import io.sqlagent.sql.result.ResultColumn;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.mutiny.sqlclient.Row;

/**
 * The statements a PostgreSQL connection keeps prepared from call to call (PgStatementCache): the one that learns a
 * statement's columns is parsed once per connection, and a table whose columns change under it is still answered
 * with its columns as they are now, on every connection of the pool.
 */
@QuarkusTest
@ScriptedModel
class KeptStatementsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    QueryRunner runner;

    @Inject
    SourceRegistry sources;

    @Test
    void theColumnsOfAStatementAreLearnedByAStatementEachConnectionParsesOnce() {
        // Given a statement asked more often than the pool has connections (a text column, which PostgreSQL may have to
        // cut, so its columns are not read as they are)
        for (int i = 0; i < 12; i++) {
            assertThat(run("SELECT album_id, title::text AS kept_names_probe FROM album WHERE album_id = 3").rowCount())
                    .isEqualTo(1);
        }

        // Then the statement that learns its columns ran from a statement its connection prepared before, not parsed
        // and planned again: PostgreSQL counts its plans (the pool hands out a connection that ran it at least once
        // in a few tries)
        long most = 0;
        for (Row row : fromAFewConnections("""
                SELECT generic_plans + custom_plans FROM pg_prepared_statements
                WHERE statement LIKE '%kept_names_probe%' AND statement LIKE 'SELECT /* sqlagent: names %'""")) {
            most = Math.max(most, row.getLong(0));
        }
        assertThat(most).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aColumnRenamedOrRetypedUnderAKeptStatementIsAnsweredAsItIsNow() {
        // Given a statement every connection of the pool has run, its column learned and kept
        execute("DROP TABLE IF EXISTS kept_shape");
        execute("CREATE TABLE kept_shape (id int, label varchar(20))");
        execute("INSERT INTO kept_shape VALUES (7, 'seven')");
        String sql = "SELECT * FROM kept_shape";
        try {
            for (int i = 0; i < 12; i++) {
                assertThat(run(sql).rowObjects().get(0).toString()).isEqualTo("{\"id\":7,\"label\":\"seven\"}");
            }

            // When a column is renamed and another retyped within its kind (the statement for the rows is the same)
            execute("ALTER TABLE kept_shape RENAME COLUMN label TO title");
            execute("ALTER TABLE kept_shape ALTER COLUMN id TYPE bigint");

            // Then every call names and types the columns as they are now
            for (int i = 0; i < 12; i++) {
                QueryResult result = run(sql);
                assertThat(result.columns()).extracting(ResultColumn::name).containsExactly("id", "title");
                assertThat(result.columns()).extracting(ResultColumn::type)
                        .containsExactly("bigint", "character varying");
                assertThat(result.rowObjects().get(0).toString()).isEqualTo("{\"id\":7,\"title\":\"seven\"}");
            }

            // And a column of another kind (a string that was a number) is read as that kind
            execute("ALTER TABLE kept_shape ALTER COLUMN id TYPE text USING 'id-' || id");
            for (int i = 0; i < 12; i++) {
                assertThat(run(sql).rowObjects().get(0).toString()).isEqualTo("{\"id\":\"id-7\",\"title\":\"seven\"}");
            }
        } finally {
            execute("DROP TABLE kept_shape");
        }
    }

    @Test
    void aStringWidenedPastTheCapUnderAKeptStatementIsStillCut() {
        // Given a statement read as it is (an integer, a varchar(20), a numeric(6, 2)), asked on every connection
        execute("DROP TABLE IF EXISTS kept_widened");
        execute("CREATE TABLE kept_widened (id int, note varchar(20), price numeric(6, 2))");
        execute("INSERT INTO kept_widened VALUES (1, 'short', 9.99)");
        String sql = "SELECT * FROM kept_widened";
        try {
            for (int i = 0; i < 12; i++) {
                assertThat(run(sql).rowObjects().toString()).isEqualTo("[{\"id\":1,\"note\":\"short\",\"price\":9.99}]");
            }

            // When the string column is widened past the cap on a value's length (2,000 characters) and holds a longer
            // value, and the numeric loses its bound
            execute("ALTER TABLE kept_widened ALTER COLUMN note TYPE varchar(5000)");
            execute("ALTER TABLE kept_widened ALTER COLUMN price TYPE numeric");
            execute("UPDATE kept_widened SET note = repeat('w', 4000), price = 123456789012345678901234567890.5");

            // Then every connection cuts the value to the cap, and writes every digit of the number
            for (int i = 0; i < 12; i++) {
                var row = run(sql).rowObjects().get(0);
                assertThat(row.get("note").asText()).startsWith("www").contains("[cut: ").hasSizeLessThan(2100);
                assertThat(row.get("price").toString()).isEqualTo("123456789012345678901234567890.5");
            }
        } finally {
            execute("DROP TABLE kept_widened");
        }
    }

    @Test
    void integersComeAsTheirValuesNotAsTextAndAColumnWidenedUnderAKeptStatementKeepsEveryDigit() {
        // Given a table of integers of every width, asked more often than the pool has connections (beside an unbounded
        // text column, which PostgreSQL may have to cut: the statement that reads the columns one by one)
        execute("DROP TABLE IF EXISTS kept_integers");
        execute("CREATE TABLE kept_integers (id int, small smallint, big bigint, label text, price numeric(6, 2))");
        execute("INSERT INTO kept_integers VALUES (-2147483648, -32768, -9223372036854775808, 'lowest', 1.50),"
                + " (2147483647, 32767, 9223372036854775807, 'highest', 2), (NULL, NULL, NULL, NULL, NULL)");
        String sql = "SELECT * FROM kept_integers ORDER BY id NULLS LAST";
        String rows = "[{\"id\":-2147483648,\"small\":-32768,\"big\":-9223372036854775808,\"label\":\"lowest\","
                + "\"price\":1.50},{\"id\":2147483647,\"small\":32767,\"big\":9223372036854775807,\"label\":\"highest\","
                + "\"price\":2.00},{\"id\":null,\"small\":null,\"big\":null,\"label\":null,\"price\":null}]";
        try {
            // Then every run answers as the first (each row's to_json) did
            for (int i = 0; i < 12; i++) {
                assertThat(run(sql).rowObjects().toString()).isEqualTo(rows);
            }

            // And PostgreSQL sent the integers as integers: it made no text of them, the statement kept says so (the
            // pool hands out a connection that ran it in a few tries)
            String types = "";
            for (Row row : fromAFewConnections("""
                    SELECT result_types::text FROM pg_prepared_statements
                    WHERE statement LIKE '%kept_integers%' AND statement LIKE 'SELECT /* sqlagent: columns */%'""")) {
                types = row.getString(0);
            }
            assertThat(types).startsWith("{integer,smallint,bigint,text,text,");

            // When a kept statement's integer column is widened and holds a value the old width cannot
            execute("ALTER TABLE kept_integers ALTER COLUMN id TYPE bigint");
            execute("UPDATE kept_integers SET id = 1099511627776 WHERE label = 'highest'");

            // Then every connection answers it whole, typed as it is now
            for (int i = 0; i < 12; i++) {
                QueryResult result = run(sql);
                assertThat(result.columns()).extracting(ResultColumn::type).startsWith("bigint", "smallint", "bigint");
                assertThat(result.rowObjects().get(1).get("id").toString()).isEqualTo("1099511627776");
            }
        } finally {
            execute("DROP TABLE kept_integers");
        }
    }

    @Test
    void aResultOfIntegersAndBoundedStringsIsReadByOneKeptStatementWithNoStatementBesideIt() {
        // Given a statement whose columns PostgreSQL sends as the answer writes them (a count, a varchar(n)), asked
        // more often than the pool has connections
        String sql = "SELECT count(*) AS as_is_probe, 'Rock'::varchar(10) AS genre FROM genre";
        for (int i = 0; i < 12; i++) {
            assertThat(run(sql).rowObjects().toString()).isEqualTo("[{\"as_is_probe\":25,\"genre\":\"Rock\"}]");
        }

        // Then after its first run it ran from a statement its connection kept, its own columns as they are, and the
        // statement that learns a query's columns ran no more (once, for the first run)
        long asIs = 0;
        long names = 0;
        for (Row row : fromAFewConnections("""
                SELECT left(statement, 26), generic_plans + custom_plans, result_types::text
                FROM pg_prepared_statements WHERE statement LIKE '%as_is_probe%'""")) {
            if (row.getString(0).startsWith(PgStatementCache.AS_IS_PREFIX)) {
                asIs = Math.max(asIs, row.getLong(1));
                assertThat(row.getString(2)).isEqualTo("{bigint,\"character varying\"}");
            } else if (row.getString(0).startsWith(PgStatementCache.NAMES_PREFIX)) {
                names = Math.max(names, row.getLong(1));
            }
        }
        assertThat(asIs).isGreaterThanOrEqualTo(2);
        assertThat(names).isLessThanOrEqualTo(1);
    }

    @Test
    void aCallReadByOneKeptStatementRunsInsideItsReadOnlyTransactionWithItsTimeoutAndEndsIt() {
        // Given a statement read as it is by one kept statement after its first run (its opening, the statement and the
        // ROLLBACK then go to PostgreSQL together), asked more often than the pool has connections
        String sql = "SELECT (current_setting('statement_timeout') <> '0')::int AS one_trip_timed, "
                + "(current_setting('transaction_read_only') = 'on')::int AS one_trip_read_only, "
                + "(now() < statement_timestamp())::int AS after_begin";
        for (int i = 0; i < 12; i++) {
            // Then every run had the transaction's statement timeout (PostgreSQL's default is none), was read-only, and
            // ran after BEGIN, in the transaction it opened
            assertThat(run(sql).rowObjects().toString())
                    .isEqualTo("[{\"one_trip_timed\":1,\"one_trip_read_only\":1,\"after_begin\":1}]");
        }

        // And it took the one kept statement, and no connection is left in a transaction
        long asIs = 0;
        for (Row row : fromAFewConnections("""
                SELECT left(statement, 26), generic_plans + custom_plans FROM pg_prepared_statements
                WHERE statement LIKE '%one_trip_timed%'""")) {
            if (row.getString(0).startsWith(PgStatementCache.AS_IS_PREFIX)) {
                asIs = Math.max(asIs, row.getLong(1));
            }
        }
        assertThat(asIs).isGreaterThanOrEqualTo(2);
        assertThat(fromAFewConnections("""
                SELECT state FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'"""))
                .isEmpty();
    }

    @Test
    void aStatementThatFailsOnTheOneRoundTripPathIsReportedAndLeavesNoConnectionInATransaction() {
        // Given a statement read by one kept statement, its opening and ROLLBACK sent with it
        execute("DROP TABLE IF EXISTS kept_divisor");
        execute("CREATE TABLE kept_divisor (d int)");
        execute("INSERT INTO kept_divisor VALUES (4)");
        String sql = "SELECT 100 / d AS quotient FROM kept_divisor";
        try {
            for (int i = 0; i < 12; i++) {
                assertThat(run(sql).rowObjects().toString()).isEqualTo("[{\"quotient\":25}]");
            }

            // When its rows make it fail at run time
            execute("UPDATE kept_divisor SET d = 0");

            // Then every call reports PostgreSQL's error, no connection is left in a transaction, and the next calls
            // answer from every connection
            for (int i = 0; i < 12; i++) {
                assertThatThrownBy(() -> run(sql)).isInstanceOf(SqlExecutionException.class)
                        .hasMessageContaining("division by zero");
            }
            assertThat(fromAFewConnections("""
                    SELECT state FROM pg_stat_activity
                    WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'"""))
                    .isEmpty();
            execute("UPDATE kept_divisor SET d = 5");
            for (int i = 0; i < 12; i++) {
                assertThat(run(sql).rowObjects().toString()).isEqualTo("[{\"quotient\":20}]");
            }
        } finally {
            execute("DROP TABLE IF EXISTS kept_divisor");
        }
    }

    @Test
    void numbersOfBoundedNumericTypesAreReadAsTheyAreByOneKeptStatementAndAnsweredAsOnTheFirstRun() {
        // Given numerics whose types bound their digits (a scale of 2, of 12, a negative one), at their extremes, NaN and
        // NULL, beside an integer and a bounded string
        execute("DROP TABLE IF EXISTS kept_numerics");
        execute("CREATE TABLE kept_numerics (id int, price numeric(10, 2), rate numeric(30, 12), round numeric(5, -2),"
                + " code varchar(8))");
        execute("INSERT INTO kept_numerics VALUES (1, 99999999.99, 0.000000000001, 9999900, 'max'),"
                + " (2, -0.5, -123456789012345678.000000000000, -1250, 'neg'), (3, 0, 0, 0, 'zero'),"
                + " (4, 'NaN', 'NaN', 'NaN', 'nan'), (5, NULL, NULL, NULL, NULL), (6, 2, 1e-7, 49, 'small')");
        String sql = "SELECT * FROM kept_numerics ORDER BY id";
        String rows = "[{\"id\":1,\"price\":99999999.99,\"rate\":0.000000000001,\"round\":9999900,\"code\":\"max\"},"
                + "{\"id\":2,\"price\":-0.50,\"rate\":-123456789012345678.000000000000,\"round\":-1300,\"code\":\"neg\"},"
                + "{\"id\":3,\"price\":0.00,\"rate\":0.000000000000,\"round\":0,\"code\":\"zero\"},"
                + "{\"id\":4,\"price\":\"NaN\",\"rate\":\"NaN\",\"round\":\"NaN\",\"code\":\"nan\"},"
                + "{\"id\":5,\"price\":null,\"rate\":null,\"round\":null,\"code\":null},"
                + "{\"id\":6,\"price\":2.00,\"rate\":0.000000100000,\"round\":0,\"code\":\"small\"}]";
        try {
            // When it is asked more often than the pool has connections
            // Then every run answers as the first (each row's to_json) did: the digits, the scale and NaN as they are
            for (int i = 0; i < 12; i++) {
                assertThat(run(sql).rowObjects().toString()).isEqualTo(rows);
            }

            // And a connection ran it from the statement it kept, which reads the numerics as PostgreSQL sends them (no
            // text cast, no statement that learns the columns beside it)
            long asIs = 0;
            for (Row row : fromAFewConnections("""
                    SELECT generic_plans + custom_plans, result_types::text FROM pg_prepared_statements
                    WHERE statement LIKE '%kept_numerics%' AND statement LIKE 'SELECT /* sqlagent: as-is %'""")) {
                asIs = Math.max(asIs, row.getLong(0));
                assertThat(row.getString(1)).isEqualTo("{integer,numeric,numeric,numeric,\"character varying\"}");
            }
            assertThat(asIs).isGreaterThanOrEqualTo(2);

            // When a kept statement's numeric gains digits, and another becomes a floating-point number
            execute("ALTER TABLE kept_numerics ALTER COLUMN price TYPE numeric(14, 4)");
            execute("UPDATE kept_numerics SET price = 1234567890.1234 WHERE id = 1");
            execute("ALTER TABLE kept_numerics ALTER COLUMN rate TYPE double precision");

            // Then every connection answers with every digit, each column typed as it is now
            for (int i = 0; i < 12; i++) {
                QueryResult result = run(sql);
                assertThat(result.columns()).extracting(ResultColumn::type)
                        .containsExactly("integer", "numeric", "double precision", "numeric", "character varying");
                assertThat(result.rowObjects().get(0).get("price").toString()).isEqualTo("1234567890.1234");
                assertThat(result.rowObjects().get(1).get("price").toString()).isEqualTo("-0.5000");
                assertThat(result.rowObjects().get(0).get("rate").toString()).isEqualTo("1e-12");
            }
        } finally {
            execute("DROP TABLE kept_numerics");
        }
    }

    @Test
    void aResultWhoseColumnTypesBoundItsValuesIsReadFromAStatementItsConnectionKept() {
        // Given a result of a numeric column with a precision and a varchar(n) column (without their bounds, a numeric
        // column's values have no length a reader could plan for): it counts its own plans, asked again and again
        String sql = "SELECT (generic_plans + custom_plans)::numeric(12, 0) AS plans, left(statement, 12)::varchar(12)"
                + " AS head FROM pg_prepared_statements WHERE statement LIKE '%plans of a bounded statement%'"
                + " AND statement NOT LIKE '" + PgStatementCache.NAMES_PREFIX + "%'";
        long most = 0;
        for (int i = 0; i < 12; i++) {
            QueryResult result = run(sql);
            assertThat(result.rowCount()).isLessThanOrEqualTo(1);
            most = Math.max(most, result.rowCount() == 0 ? 0 : result.rows().get(0).get(0).asLong());
        }

        // Then a connection ran it from the statement it prepared before, in one read, not a cursor's statement a call
        assertThat(most).isGreaterThanOrEqualTo(2);
    }

    @Test
    void valuesOfColumnsBoundedByTheirTypesAreAnsweredAsOnTheFirstRun() {
        // Given values of bounded types, below, at and above the cap on a value's length (2,000 characters)
        String sql = """
                SELECT repeat('é', 2500)::varchar(3000) AS wider, repeat('x', 2000)::varchar(2000) AS at_cap,
                       repeat('😀', 1999)::varchar(1999) AS astral, E'a"b\\\\c\\n'::varchar(6) AS quoted,
                       -12345678.91::numeric(10, 2) AS price, 0.001::numeric(3, 3) AS tiny, 'NaN'::numeric(4, 1) AS nan,
                       'ab'::character(4) AS padded, 'pg_class'::name AS relation""";

        // When it runs first (each row's JSON) and again (each column as text, uncut where the type bounds it)
        QueryResult first = run(sql);
        QueryResult again = run(sql);
        QueryResult third = run(sql);

        // Then every run answers the same, the value wider than the cap cut, the one at the cap whole
        assertThat(again.rowObjects().toString()).isEqualTo(first.rowObjects().toString());
        assertThat(third.rowObjects().toString()).isEqualTo(first.rowObjects().toString());
        assertThat(again.columns()).isEqualTo(first.columns());
        var row = again.rowObjects().get(0);
        assertThat(row.get("wider").asText()).startsWith("éé").contains("[cut: ").hasSizeLessThan(2100);
        assertThat(row.get("at_cap").asText()).isEqualTo("x".repeat(2000));
        assertThat(row.get("quoted").asText()).isEqualTo("a\"b\\c\n");
        assertThat(row.get("price").toString()).isEqualTo("-12345678.91");
        assertThat(row.get("tiny").toString()).isEqualTo("0.001");
        assertThat(row.get("padded").asText()).isEqualTo("ab  ");
        assertThat(row.get("relation").asText()).isEqualTo("pg_class");
    }

    /**
     * The rows {@code query} finds on a few of the pool's connections, in turn: what a connection keeps is its own, and
     * the pool hands out a connection that ran a statement in a few tries.
     */
    private List<Row> fromAFewConnections(String query) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            chinook().requirePool().withConnection(connection -> connection.query(query).execute()).await().atMost(WAIT)
                    .forEach(rows::add);
        }
        return rows;
    }

    private QueryResult run(String sql) {
        return runner.run(chinook(), sql).await().atMost(WAIT);
    }

    private void execute(String sql) {
        chinook().executeWriting(sql).await().atMost(WAIT);
    }

    private Source chinook() {
        return sources.find("default").orElseThrow();
    }
}
