package io.sqlagent.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class SqlScriptTest {

    @Test
    void splitsOnSemicolonsAndDropsLeadingComments() {
        List<String> statements = SqlScript.statements("""
                /* header
                   comment */
                DROP DATABASE IF EXISTS x;
                -- a line comment
                CREATE TABLE t (id INT);
                """);

        assertEquals(List.of("DROP DATABASE IF EXISTS x", "CREATE TABLE t (id INT)"), statements);
    }

    @Test
    void keepsSemicolonsInsideLiteralsIdentifiersAndDollarQuotes() {
        String script = """
                INSERT INTO t VALUES ('a;b', 'it''s; fine', E'back\\'; slash');
                SELECT "odd;name" FROM t;
                CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
                SELECT $$;$$;
                """;

        List<String> statements = SqlScript.statements(script);

        assertEquals(4, statements.size(), statements.toString());
        assertTrue(statements.get(0).endsWith("E'back\\'; slash')"), statements.get(0));
        assertEquals("SELECT \"odd;name\" FROM t", statements.get(1));
        assertTrue(statements.get(2).contains("$body$ SELECT 1; $body$"));
        assertEquals("SELECT $$;$$", statements.get(3));
    }

    @Test
    void dropsPsqlMetaCommandsOnlyAtTheStartOfALine() {
        List<String> statements = SqlScript.statements("""
                \\c chinook;
                \\set ON_ERROR_STOP on
                SELECT '\\c not a command';
                """);

        assertEquals(List.of("SELECT '\\c not a command'"), statements);
    }

    @Test
    void nestedBlockCommentsAndPositionalParametersAreNotDollarQuotes() {
        List<String> statements = SqlScript.statements("""
                /* outer /* inner; */ still comment; */
                SELECT $1, a$b$ FROM t;
                """);

        assertEquals(List.of("SELECT $1, a$b$ FROM t"), statements);
    }

    @Test
    void namesTheLineOfAnUnterminatedLiteral() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> SqlScript.statements("SELECT 1;\nSELECT 'open;\n"));

        assertEquals("Unterminated string literal starting on line 2", error.getMessage());
    }

    @Test
    void splitsTheShippedChinookScriptIntoItsStatements() throws Exception {
        String script;
        try (var in = getClass().getClassLoader().getResourceAsStream(io.sqlagent.embedded.ChinookLoader.SCRIPT)) {
            script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }

        List<String> statements = SqlScript.statements(script);

        assertEquals("DROP DATABASE IF EXISTS chinook", statements.get(0));
        assertEquals("CREATE DATABASE chinook", statements.get(1));
        assertTrue(statements.get(2).startsWith("CREATE TABLE album"), statements.get(2));
        assertEquals(11, statements.stream().filter(s -> s.startsWith("CREATE TABLE")).count());
        assertTrue(statements.stream().noneMatch(s -> s.startsWith("\\")));
    }
}
