package io.sqlagent.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** Values out of learned text: SQL literals by PostgreSQL's own token rules, quoted parts of error messages. */
class SqlLiteralsTest {

    @Test
    void everyKindOfLiteralBecomesAPlaceholderAndCommentsGo() {
        assertEquals("SELECT * FROM customer WHERE company = ? AND customer_id > ? ",
                SqlLiterals.mask("SELECT * FROM customer WHERE company = 'Acme Corp' AND customer_id > 42 -- rep's own"));
        assertEquals("SELECT ?, ?, ?, ?, ?::int",
                SqlLiterals.mask("SELECT E'Ac\\'me', $$Acme$$, $t$Ac'me$t$, U&'Acme', '7'::int"));
        assertEquals("SELECT \"Company\" FROM customer  WHERE x = ?",
                SqlLiterals.mask("SELECT \"Company\" FROM customer /* 'Acme' */ WHERE x = 1.5e3"));
        assertEquals("?", SqlLiterals.mask("SELECT 'unterminated"));
    }

    @Test
    void quotedValuesAndKeyDetailsLeaveErrorMessages() {
        assertEquals("invalid input syntax for type integer: \"?\"",
                SqlLiterals.maskMessage("invalid input syntax for type integer: \"Acme Corp\""));
        assertEquals("Key (email)=(?) already exists.",
                SqlLiterals.maskMessage("Key (email)=(ada@example.com (work)) already exists."));
        String masked = SqlLiterals.maskMessage("date/time field value out of range: '2024-13-01'");
        assertFalse(masked.contains("2024"), masked);
        assertEquals("syntax error at or near \"?\"", SqlLiterals.maskMessage("syntax error at or near \"'Acme'\""));
        // Names the statement wrote stay: a schema fix is about them.
        assertEquals("column \"trackname\" of relation \"track\" does not exist",
                SqlLiterals.maskMessage("column \"trackname\" of relation \"track\" does not exist"));
    }
}
