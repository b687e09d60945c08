package io.sqlagent.sql.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Which texts of a number column are written as JSON numbers (as {@code to_json} does), and how columns are asked for. */
class ColumnKindTest {

    @Test
    void onlyJsonsOwnNumbersAreWrittenAsNumbers() {
        for (String number : List.of("0", "-0", "7", "-2147483648", "270.00", "0.0000001", "1e+20", "1E-7", "-1.5e300",
                "123456789012345678901234567890.123456789012345678901234567890")) {
            assertTrue(ColumnKind.isJsonNumber(number), number);
        }
        for (String other : List.of("", "-", "NaN", "Infinity", "-Infinity", "01", "1.", ".5", "1e", "1e+", "+1", "1 ",
                " 1", "1.5.5", "0x10", "1,5", "١")) {
            assertFalse(ColumnKind.isJsonNumber(other), other);
        }
    }

    @Test
    void numbersBooleansAndPlainStringsComeAsTextEverythingElseAsItsJson() {
        assertEquals(ColumnKind.NUMBER, ColumnKind.of("bigint"));
        assertEquals(ColumnKind.DECIMAL, ColumnKind.of("numeric"));
        assertEquals(ColumnKind.BOOLEAN, ColumnKind.of("boolean"));
        assertEquals(ColumnKind.STRING, ColumnKind.of("character varying"));
        // character(n): a cast to text would drop its padding, which to_json keeps
        for (String type : List.of("character", "timestamp with time zone", "integer[]", "jsonb", "uuid", "oid", "money",
                "mood", "unknown")) {
            assertEquals(ColumnKind.JSON, ColumnKind.of(type), type);
        }
        assertEquals("q.c1::text, to_json(q.c2)::text, q.c3::text",
                ColumnKind.selectList(List.of(ColumnKind.NUMBER, ColumnKind.JSON, ColumnKind.STRING), "q"));
        assertEquals("c1, c2, c3", ColumnKind.aliases(3));
    }
}
