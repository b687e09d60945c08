package io.sqlagent.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class NamedParametersTest {

    private static String rewrite(String sql, Map<String, Integer> arity) {
        return NamedParameters.of(sql).rewrite(arity, (name, number) -> "$" + number).sql();
    }

    @Test
    void findsPlaceholdersInCodeOnly() {
        NamedParameters parameters = NamedParameters
                .of("SELECT ':a', E'\\':b', $$:c$$, $q$:d$q$, \":e\", U&\":f\" /* :g /* :h */ */"
                        + " -- :i\n FROM t WHERE x = :real AND y = :other");

        assertEquals(List.of("real", "other"), List.copyOf(parameters.names()));
    }

    @Test
    void castsAreNotPlaceholders() {
        assertEquals("SELECT $1::int, x::text, $2 :: date, $1", rewrite("SELECT :a::int, x::text, :b :: date, :a", Map.of()));
    }

    @Test
    void aNameUsedTwiceTakesTheSameNumbers() {
        assertEquals("WHERE ($1 IS NULL OR c = $1) AND d IN ($2, $3, $4) AND e = $5 AND f IN ($2, $3, $4)",
                rewrite("WHERE (:p IS NULL OR c = :p) AND d IN (:ids) AND e = :q AND f IN (:ids)", Map.of("ids", 3)));
    }

    @Test
    void aColonFollowedBySpaceOrNumberIsNotAPlaceholder() {
        assertEquals(List.of(), List.copyOf(NamedParameters.of("SELECT arr[1:2], ': x', 1 : 2").names()));
    }

    @Test
    void wordsAreTheCodeTokensOnly() {
        assertEquals(List.of("SELECT", "RANDOM", "FROM", "T"),
                NamedParameters.of("SELECT random() /* drop */, 'delete' FROM t -- truncate").words());
    }

    @Test
    void unreadableSqlIsRefusedWithItsPosition() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> NamedParameters.of("SELECT 'open\nFROM t"));
        assertEquals("unterminated quoted string at line 1, column 8", failure.getMessage());
    }
}
