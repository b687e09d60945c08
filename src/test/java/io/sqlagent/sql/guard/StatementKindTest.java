package io.sqlagent.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;

class StatementKindTest {

    @Test
    void parsesConfigurationNamesIgnoringCase() {
        assertEquals(StatementKind.SELECT, StatementKind.parse("select"));
        assertEquals(StatementKind.VALUES, StatementKind.parse("VALUES"));
        assertEquals(StatementKind.EXPLAIN, StatementKind.parse(" Explain "));
    }

    @Test
    void rejectsUnknownNamesListingTheValidOnes() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> StatementKind.parse("delete"));

        assertEquals("Unknown statement kind 'delete'; valid kinds are select, values, explain", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StatementKind.parse(null));
    }

    @Test
    void parsesAConfigurationList() {
        assertEquals(EnumSet.of(StatementKind.SELECT, StatementKind.EXPLAIN),
                StatementKind.parseAll(List.of("select", "explain", "SELECT")));
    }
}
