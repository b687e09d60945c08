package io.sqlagent.sql.engine.postgres;

import java.lang.reflect.Field;

import io.quarkus.logging.Log;
import io.vertx.sqlclient.desc.ColumnDescriptor;

/**
 * The most characters a result column's value can have as text, from the type modifier PostgreSQL describes the
 * column with: {@code character varying(n)} holds at most n characters, {@code numeric(p, s)} a sign, p digits and a
 * point, {@code name} 63 bytes. Such a column needs no cut ({@code WideValues}) when it is within the cap, and lets a
 * result be known small ({@code PgResults}) when its other columns are of fixed width. Unbounded ({@link #UNBOUNDED})
 * for any other type, or when the modifier cannot be read.
 *
 * <p>
 * The SQL client reads the modifier from PostgreSQL's row description but does not expose it; it is read from the
 * client's column descriptor by reflection, and a client that changes its descriptor only makes every column
 * unbounded again (a cut asked of PostgreSQL, a cursor), never a wrong answer.
 */
final class PgColumnLengths {

    /** No bound known. */
    static final int UNBOUNDED = -1;

    /** PostgreSQL's {@code VARHDRSZ}, added to every length and precision kept in a type modifier. */
    private static final int HEADER = 4;
    /** {@code NAMEDATALEN - 1}, in bytes: a {@code name} never has more characters. */
    private static final int NAME_BYTES = 63;
    /** {@code -Infinity} and {@code NaN}, which a {@code numeric(p, s)} column may hold whatever p is. */
    private static final int NUMERIC_WORDS = 9;

    private static final Field TYPE_MODIFIER = typeModifierField();

    private PgColumnLengths() {
    }

    private static Field typeModifierField() {
        try {
            Field field = Class.forName("io.vertx.pgclient.impl.codec.PgColumnDesc", false,
                    PgColumnLengths.class.getClassLoader()).getDeclaredField("typeModifier");
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            Log.debugf("Column type modifiers cannot be read, every column is taken as unbounded: %s", e.toString());
            return null;
        }
    }

    /** The most characters a value of {@code column} can have as text, or {@link #UNBOUNDED}. */
    static int of(ColumnDescriptor column) {
        String type = column.typeName();
        if ("NAME".equals(type)) {
            return NAME_BYTES;
        }
        int modifier = typeModifier(column);
        if (modifier < HEADER) {
            return UNBOUNDED;
        }
        return switch (type) {
            case "VARCHAR" -> modifier - HEADER;
            case "NUMERIC" -> numeric(modifier - HEADER);
            default -> UNBOUNDED;
        };
    }

    /**
     * A {@code numeric(p, s)}'s longest text: a sign, the digits before the point (p - s, at least a 0; more than p
     * with a negative scale), then the point and s digits.
     */
    private static int numeric(int modifier) {
        int precision = (modifier >> 16) & 0xffff;
        // The scale is 11 bits, signed since PostgreSQL 15 (numeric(2, -3)); earlier versions keep it within 0..1000.
        int scale = ((modifier & 0x7ff) ^ 1024) - 1024;
        int text = 1 + Math.max(1, precision - scale) + (scale > 0 ? 1 + scale : 0);
        return Math.max(text, NUMERIC_WORDS);
    }

    private static int typeModifier(ColumnDescriptor column) {
        if (TYPE_MODIFIER == null || !TYPE_MODIFIER.getDeclaringClass().isInstance(column)) {
            return UNBOUNDED;
        }
        try {
            return TYPE_MODIFIER.getInt(column);
        } catch (IllegalAccessException e) {
            return UNBOUNDED;
        }
    }
}
