package io.sqlagent.sql.result;

import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;

/**
 * Has PostgreSQL cut values longer than an answer keeps ({@code max-cell-chars}) before they are sent, so a call's
 * memory follows what it keeps rather than what the table holds: a row of ten 15 MB strings used to arrive whole,
 * about 1.5 GB of heap per call. A value PostgreSQL cut comes as its first {@code cap} characters with its whole
 * length beside it, and {@link ResultValues#cutPrefix} writes from them the same cut {@link ResultValues#cut} writes
 * from the whole value; values within the cap come exactly as before, and rows within {@link #ROW_JSON_BOUND} on a
 * statement's first run too. Lengths are PostgreSQL's, in characters (code
 * points), while the service counts UTF-16 units: the count in a cut's marker leaves out one unit per character
 * outside the Basic Multilingual Plane past the first {@code cap} characters, the only difference from cutting in the
 * service.
 *
 * <p>
 * A statement's first run reads each row's {@code to_json} ({@code PgResults}); a row longer than
 * {@link #ROW_JSON_BOUND} comes as NULL instead, and the statement is read again the way later runs read it, each column
 * as text ({@link ColumnKind}), where the cut happens: a string column comes as its first characters, and one more
 * column after the row's lists {@code <column number>:<length>} of the string columns cut, comma-separated; a
 * {@code to_json} column that was cut comes as {@code !<length>:<first characters>} (JSON text never starts with
 * {@code !}).
 * Only strings and JSON structures are cut, as {@link ResultValues} cuts them: the decoded text of a JSON string, the
 * JSON text of an object or array. The cap is the service's own setting, written into the statement as a number.
 */
public final class WideValues {

    /** The characters JSON allows around a value, which a cut structure's text leaves out. */
    private static final String JSON_SPACE = "E' \\t\\n\\r'";

    private WideValues() {
    }

    /**
     * Longest {@code to_json} of a row, in bytes, that a statement's first run reads whole: a longer row comes as SQL
     * NULL (a row's JSON never is), and the statement is read again with each column as text, cut by PostgreSQL
     * ({@link #selectList}). A bound rather than the cap: a row of many short values is longer than one value may be,
     * and taking it apart in PostgreSQL ({@code json_each}) cost several times what reading it again does.
     */
    public static final int ROW_JSON_BOUND = 1 << 20;

    /**
     * The select list of a statement's first run over the subquery {@code q}: each row's {@code to_json} as text, or
     * NULL for a row longer than {@link #ROW_JSON_BOUND}.
     */
    public static String rowJson() {
        return "(SELECT CASE WHEN octet_length(r.j) <= " + ROW_JSON_BOUND + " THEN r.j END"
                + " FROM (SELECT to_json(q.*)::text AS j OFFSET 0) AS r)";
    }

    /**
     * The select list that reads the columns of a subquery aliased {@code alias(c1, …, cN)} as {@link ColumnKind}
     * says, wide values cut, then the column of the string columns cut. A string column for which {@code whole} holds
     * is read as it is: its type keeps it within the cap ({@code varchar(n)} with n no more than the cap), so
     * PostgreSQL has nothing to cut. A column for which {@code asIs} names a type is read as that type, not as text:
     * PostgreSQL then sends an integer in its binary form and makes no text of it (the reader writes its digits,
     * which are that text). The type is written into the statement, so a statement a connection keeps has the same
     * result type whatever the table's column became since.
     */
    public static String selectList(List<ColumnKind> kinds, IntPredicate whole, IntFunction<String> asIs, String alias,
            int cap) {
        StringBuilder list = new StringBuilder();
        StringBuilder cuts = new StringBuilder();
        for (int i = 0; i < kinds.size(); i++) {
            String column = alias + ".c" + (i + 1);
            list.append(i > 0 ? ", " : "");
            String type = asIs.apply(i);
            if (type != null) {
                list.append(column).append("::").append(type);
                continue;
            }
            switch (kinds.get(i)) {
                case STRING -> {
                    if (whole.test(i)) {
                        list.append(column).append("::text");
                        continue;
                    }
                    String text = column + "::text";
                    // octet_length of a text is its stored length, read without reading the value.
                    list.append("CASE WHEN octet_length(").append(text).append(") <= ").append(cap).append(" THEN ")
                            .append(text).append(" ELSE left(").append(text).append(", ").append(cap).append(") END");
                    cuts.append(cuts.isEmpty() ? "" : ", ").append("CASE WHEN octet_length(").append(text).append(") > ")
                            .append(cap).append(" AND char_length(").append(text).append(") > ").append(cap)
                            .append(" THEN '").append(i + 1).append(":' || char_length(").append(text).append(") END");
                }
                case JSON -> {
                    String json = "to_json(" + column + ")::text";
                    list.append("CASE WHEN octet_length(").append(json).append(") <= ").append(cap).append(" THEN ")
                            .append(json).append(" ELSE ").append(cutJson(json, cap)).append(" END");
                }
                default -> list.append(column).append("::text");
            }
        }
        list.append(kinds.isEmpty() ? "" : ", ").append(cuts.isEmpty() ? "NULL::text" : "concat_ws(',', " + cuts + ")");
        return list.toString();
    }

    /** A {@code to_json} text longer than the cap in bytes: itself when within it in characters, else cut. */
    private static String cutJson(String json, int cap) {
        return "(SELECT CASE WHEN char_length(s.j) <= " + cap + " THEN s.j"
                + " WHEN json_typeof(s.j::json) = 'string' THEN (SELECT CASE WHEN char_length(d.t) <= " + cap
                + " THEN s.j ELSE '!' || char_length(d.t) || ':' || left(d.t, " + cap + ") END"
                + " FROM (SELECT s.j::json #>> '{}' AS t OFFSET 0) AS d)"
                + " WHEN json_typeof(s.j::json) IN ('object', 'array') THEN (SELECT CASE WHEN char_length(b.t) <= " + cap
                + " THEN s.j ELSE '!' || char_length(b.t) || ':' || left(b.t, " + cap + ") END"
                + " FROM (SELECT btrim(s.j, " + JSON_SPACE + ") AS t OFFSET 0) AS b)"
                + " ELSE s.j END FROM (SELECT " + json + " AS j OFFSET 0) AS s)";
    }

    /**
     * The whole lengths of the string columns PostgreSQL cut, by column index (0 where not cut), from the column
     * {@link #selectList} adds; null when none was cut.
     */
    static long[] stringCuts(String cuts, int columns) {
        if (cuts == null || cuts.isEmpty()) {
            return null;
        }
        long[] lengths = new long[columns];
        for (String cut : cuts.split(",")) {
            int colon = cut.indexOf(':');
            lengths[Integer.parseInt(cut, 0, colon, 10) - 1] = Long.parseLong(cut, colon + 1, cut.length(), 10);
        }
        return lengths;
    }
}
