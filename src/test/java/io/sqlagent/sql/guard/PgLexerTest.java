package io.sqlagent.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.sqlagent.MessageText;

/** PostgreSQL's token rules, and the copy of the text JSqlParser is given. */
class PgLexerTest {

    private static String kinds(String sql) throws Exception {
        StringBuilder out = new StringBuilder();
        for (PgToken token : PgLexer.lex(sql)) {
            out.append(token.kind()).append('[').append(token.text(sql)).append("] ");
        }
        return out.toString().trim();
    }

    @Test
    void cutsStringsNamesAndCommentsWherePostgresqlDoes() throws Exception {
        assertEquals("WORD[SELECT] STRING['it''s'] PUNCTUATION[,] QUOTED_IDENTIFIER[\"a\"\"b\"] COMMENT[-- x;]",
                kinds("SELECT 'it''s', \"a\"\"b\" -- x;"));
        assertEquals("WORD[SELECT] ESCAPE_STRING[E'\\'; '] PUNCTUATION[,] STRING['a\\'] PUNCTUATION[,] STRING[X'1F']",
                kinds("SELECT E'\\'; ', 'a\\', X'1F'"));
        assertEquals("WORD[SELECT] COMMENT[/* a /* b */ c */] NUMBER[1]", kinds("SELECT /* a /* b */ c */ 1"));
    }

    @Test
    void cutsDollarQuotesParametersAndNamesWithDollars() throws Exception {
        assertEquals("WORD[SELECT] DOLLAR_STRING[$a$ $$ ' $a$] PUNCTUATION[,] DOLLAR_STRING[$$x$$] PUNCTUATION[,] "
                + "PARAMETER[$1] PUNCTUATION[,] WORD[b$$]", kinds("SELECT $a$ $$ ' $a$, $$x$$, $1, b$$"));
        assertEquals("NUMBER[1] DOLLAR_STRING[$$x$$]", kinds("1$$x$$"));
        assertEquals("NUMBER[0x1F] NUMBER[1.5e-3] NUMBER[.5] NUMBER[1_000] NUMBER[1.]",
                kinds("0x1F 1.5e-3 .5 1_000 1."));
    }

    @Test
    void endsLineCommentsAtCarriageReturnsAndOperatorsBeforeComments() throws Exception {
        assertEquals("NUMBER[1] COMMENT[-- a] PUNCTUATION[,] NUMBER[2]", kinds("1 -- a\r, 2"));
        assertEquals("NUMBER[1] OPERATOR[+] COMMENT[-- a] NUMBER[2]", kinds("1 +-- a\n2"));
    }

    @Test
    void reportsWhatPostgresqlWouldNotRead() {
        assertEquals("unterminated quoted string", assertThrows(LexException.class,
                () -> PgLexer.lex("SELECT 'a")).getMessage());
        assertEquals("unterminated dollar-quoted string", assertThrows(LexException.class,
                () -> PgLexer.lex("SELECT $x$a$y$")).getMessage());
        assertEquals("zero-length quoted identifier", assertThrows(LexException.class,
                () -> PgLexer.lex("SELECT \"\"")).getMessage());
        assertEquals("unexpected character '\\'", assertThrows(LexException.class,
                () -> PgLexer.lex("SELECT \\x")).getMessage());
        assertEquals(7, assertThrows(LexException.class, () -> PgLexer.lex("SELECT ]")).position());
        // PostgreSQL 14 would read e'…' here as an escape string, 15 and later refuse it.
        assertEquals("trailing junk after numeric literal", assertThrows(LexException.class,
                () -> PgLexer.lex("SELECT 1e'\\'', 2")).getMessage());
        assertEquals("trailing junk after parameter", assertThrows(LexException.class,
                () -> PgLexer.lex("SELECT $1abc")).getMessage());
    }

    @Test
    void countsStatementsBetweenSemicolonsIgnoringEmptyOnes() throws Exception {
        assertEquals(1, LexedSql.of("SELECT 1;").statementCount());
        assertEquals(1, LexedSql.of(";; SELECT ';' ;; -- ;\n").statementCount());
        assertEquals(2, LexedSql.of("SELECT $$;$$; /* ; */ SELECT 2").statementCount());
        assertEquals(0, LexedSql.of("-- nothing\n;").statementCount());
    }

    @Test
    void givesTheParserACopyWithTheSameLayout() throws Exception {
        LexedSql lexed = LexedSql.of("SELECT $t$a'b$t$, E'c\\'d', /* x */ 1;\t-- y\n");

        assertEquals("SELECT '  a b  ', ' c  d', " + " ".repeat(7) + " 1" + " ".repeat(6) + "\n", lexed.forParser(0));
    }

    @Test
    void blanksTheExplainHeaderInTheParserCopy() throws Exception {
        LexedSql lexed = LexedSql.of("EXPLAIN (FORMAT\nJSON) SELECT 1");
        int start = ExplainHeader.statementStart(lexed);

        assertEquals(5, start);
        assertEquals("               \n      SELECT 1", lexed.forParser(lexed.code().get(start).start()));
    }

    @Test
    void findsNamesWrittenBeforeAParenthesis() throws Exception {
        LexedSql lexed = LexedSql.of("SELECT pg_catalog.\"PG_Sleep\" (1), 'lo_import(2)', x::numeric(10,2) FROM f(3)");

        assertEquals(List.of("PG_Sleep", "numeric", "f"), lexed.namesBeforeParenthesis(0));
    }

    @Test
    void givesLineAndColumnOfAnOffset() {
        assertEquals("line 1, column 1", MessageText.lineAndColumn("abc", 0));
        assertEquals("line 2, column 3", MessageText.lineAndColumn("a\nbcd", 4));
        assertEquals("line 3, column 1", MessageText.lineAndColumn("a\r\nb\rc", 5));
    }
}
