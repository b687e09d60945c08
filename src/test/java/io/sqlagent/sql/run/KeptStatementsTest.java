package io.sqlagent.sql.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.result.ResultColumn;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;

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
        // Given a statement asked more often than the pool has connections
        for (int i = 0; i < 12; i++) {
            assertThat(run("SELECT album_id, title AS kept_names_probe FROM album WHERE album_id = 3").rowCount())
                    .isEqualTo(1);
        }

        // Then the statement that learns its columns ran from a statement its connection prepared before, not parsed
        // and planned again: PostgreSQL counts its plans (the pool hands out a connection that ran it at least once
        // in a few tries)
        long most = 0;
        for (int i = 0; i < 6; i++) {
            for (var row : chinook().requirePool().withConnection(connection -> connection.query("""
                    SELECT generic_plans + custom_plans FROM pg_prepared_statements
                    WHERE statement LIKE '%kept_names_probe%' AND statement LIKE 'SELECT /* sqlagent: names %'""")
                    .execute()).await().atMost(WAIT)) {
                most = Math.max(most, row.getLong(0));
            }
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
