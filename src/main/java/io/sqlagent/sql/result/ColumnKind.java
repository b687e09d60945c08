package io.sqlagent.sql.result;

import java.util.ArrayList;
import java.util.List;

/**
 * How a column's values are asked of PostgreSQL when the service renders them itself, by the column's
 * type: numbers, booleans and plain strings as their text (a cast to {@code text}, which PostgreSQL
 * writes with the type's own output function and a cached look-up), everything else as PostgreSQL's
 * {@code to_json} of the value. Both give exactly the JSON that {@code to_json} of the whole row gives
 * (see {@link ResultValues}); the text costs PostgreSQL about a third as much (PostgreSQL 15, 1,000
 * rows of nine columns: {@code to_json} of the row looks each value's type up again, for every row).
 */
public enum ColumnKind {
    /**
     * {@code smallint}, {@code integer}, {@code bigint}, {@code real}, {@code double precision}: a few characters. Once
     * a statement's columns are known, PostgreSQL's reader asks for the integer types as they are, not as text: their
     * binary form costs PostgreSQL no text, and their digits are that text ({@code PgShapes}).
     */
    NUMBER,
    /**
     * {@code numeric}: its text, as a {@link #NUMBER}'s, but of any length (up to 131,072 digits before the point),
     * never cut, so a row of them has no bound a reader could plan for.
     */
    DECIMAL,
    /** {@code boolean}: its text cast is {@code true} or {@code false}. */
    BOOLEAN,
    /** {@code text}, {@code character varying}, {@code name}: the string itself. */
    STRING,
    /** Any other type, {@code character(n)} included (a cast to text would drop its padding): {@code to_json} of the value. */
    JSON;

    /** The kind of a column of type {@code type}, as {@link DriverTypes} or {@code pg_typeof} names it. */
    public static ColumnKind of(String type) {
        return switch (type) {
            case "smallint", "integer", "bigint", "real", "double precision" -> NUMBER;
            case "numeric" -> DECIMAL;
            case "boolean" -> BOOLEAN;
            case "text", "character varying", "name" -> STRING;
            default -> JSON;
        };
    }

    /** The kinds of {@code columns}, in order. */
    public static List<ColumnKind> of(List<ResultColumn> columns) {
        List<ColumnKind> kinds = new ArrayList<>(columns.size());
        for (ResultColumn column : columns) {
            kinds.add(of(column.type()));
        }
        return kinds;
    }

    /**
     * The select list that reads the columns of a subquery aliased {@code alias(c1, …, cN)} this way, one
     * text column per column.
     */
    public static String selectList(List<ColumnKind> kinds, String alias) {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < kinds.size(); i++) {
            String column = alias + ".c" + (i + 1);
            list.append(i > 0 ? ", " : "")
                    .append(kinds.get(i) == JSON ? "to_json(" + column + ")::text" : column + "::text");
        }
        return list.toString();
    }

    /** The column aliases {@code c1, …, cN} that {@link #selectList} refers to. */
    public static String aliases(int count) {
        StringBuilder aliases = new StringBuilder();
        for (int i = 1; i <= count; i++) {
            aliases.append(i > 1 ? ", " : "").append('c').append(i);
        }
        return aliases.toString();
    }

    /**
     * Whether {@code text} is what {@code to_json} writes as a JSON number: JSON's grammar,
     * {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}, so not NaN or Infinity, which it quotes. A scan of its
     * own rather than that pattern: it runs for every number of every row, and a matcher per value was a visible
     * share of a large result's CPU.
     */
    static boolean isJsonNumber(String text) {
        int length = text.length();
        int i = 0;
        if (i < length && text.charAt(i) == '-') {
            i++;
        }
        if (i >= length) {
            return false;
        }
        if (text.charAt(i) == '0') {
            i++;
        } else {
            int start = i;
            i = digits(text, i);
            if (i == start) {
                return false;
            }
        }
        if (i < length && text.charAt(i) == '.') {
            int start = ++i;
            i = digits(text, i);
            if (i == start) {
                return false;
            }
        }
        if (i < length && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            i++;
            if (i < length && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
                i++;
            }
            int start = i;
            i = digits(text, i);
            if (i == start) {
                return false;
            }
        }
        return i == length;
    }

    private static int digits(String text, int from) {
        int i = from;
        while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            i++;
        }
        return i;
    }
}
