package io.sqlagent.sql.engine.postgres;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.engine.Pipelined;
import io.sqlagent.sql.engine.ResultReader;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.result.ColumnKind;
import io.sqlagent.sql.result.DriverTypes;
import io.sqlagent.sql.result.ResultColumn;
import io.sqlagent.sql.result.ResultJson;
import io.sqlagent.sql.result.ResultValues;
import io.sqlagent.sql.result.WideValues;
import io.vertx.mutiny.sqlclient.Cursor;
import io.vertx.mutiny.sqlclient.PreparedStatement;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.data.Numeric;
import io.vertx.sqlclient.desc.ColumnDescriptor;

/**
 * PostgreSQL's {@link ResultReader}: reads a statement's result through a cursor, at most {@code max-rows + 1} rows
 * however many the query would produce, each value made JSON-friendly and capped as it arrives, so a result never holds
 * more than one batch of whole rows. A read-only query's values are rendered by PostgreSQL, by the kinds of its columns
 * once {@link PgShapes} knows them; then a result that is small whatever the rows hold ({@link #small}) is read without
 * a cursor, by a statement the connection keeps prepared. The server's refusal comes as a {@link PgRefusal}, its
 * position into the caller's statement; a statement whose columns changed since its last run fails with
 * {@link PgShapes.Changed}, to be run once more ({@link #againIfChanged}).
 */
public final class PgResults implements ResultReader {

    /** Rows one cursor read takes at most. */
    public static final int MAX_BATCH = 1000;
    /**
     * Rows the first read takes, before their size is known. Kept small: a row's size is unbounded, and
     * 32 rows of a megabyte each exhausted a 128 MB heap (ResultMemoryIT); later reads size themselves.
     */
    private static final int FIRST_BATCH = 10;
    /** About how many characters of rows one read may bring, once their size is known. */
    private static final long BATCH_CHARS = 4_000_000;

    /**
     * About the longest a number of fixed width, a boolean, a cut string's marker or a cut JSON value's length prefix
     * is, in characters, for {@link #small}.
     */
    private static final int SHORT_VALUE_CHARS = 40;

    // WHERE false, not LIMIT 0: both return no rows and the statement's own columns, but PostgreSQL plans
    // the statement in full under a LIMIT 0, while a constant false condition lets it skip planning the
    // joins and starting them (PostgreSQL 15, a top-10 join over three tables, warm: 0.13-0.15 ms of
    // planning against 0.012 ms).
    private static final String NAMES_SUFFIX = "\n) AS q WHERE false";

    /** The kinds of the columns of the statements run lately, shared by every PostgreSQL source. */
    private final PgShapes shapes = new PgShapes();

    /**
     * How a result is read.
     *
     * @param maxRows rows kept at most; one more is read to know there were more
     * @param maxBatch rows one cursor read takes at most
     * @param maxResultChars about how many characters of JSON the kept rows may take; past it, reading stops
     * @param maxCellChars longest string kept whole
     * @param readOnly whether the statement is read-only (only those are rendered by PostgreSQL)
     */
    private record Reading(int maxRows, int maxBatch, long maxResultChars, int maxCellChars, boolean readOnly) {
    }

    /** A read-only statement without parameters, in cursor reads of {@link #MAX_BATCH} rows at most. */
    @Override
    public Uni<Result> read(SqlConnection connection, String sql, Caps caps) {
        return read(connection, sql, Tuple.tuple(), caps, MAX_BATCH, true);
    }

    /**
     * {@code sql} with its positional parameters ({@code $1}, ...) bound to {@code params}, read within {@code caps} in
     * cursor reads of {@code maxBatch} rows at most; a statement that is not {@code readOnly} is read through the
     * driver's values (it cannot be a subquery).
     */
    public Uni<Result> read(SqlConnection connection, String sql, Tuple params, Caps caps, int maxBatch,
            boolean readOnly) {
        return plan(sql, caps, maxBatch, readOnly).read(connection, params);
    }

    /**
     * How {@code sql}'s result will be read ({@link Plan}), decided once: the statement lexed and its shape looked up a
     * single time per call, whichever way it is then read.
     */
    public Plan plan(String sql, Caps caps, int maxBatch, boolean readOnly) {
        Reading reading = new Reading(caps.maxRows(), Math.min(maxBatch, MAX_BATCH), caps.maxResultChars(),
                caps.maxCellChars(), readOnly);
        // statementBody is empty for anything that does not start as a query, an EXPLAIN included.
        String body = readOnly ? SqlGuard.statementBody(sql).orElse(null) : null;
        // The shape as it is now decides the path: the read takes this one, whatever another call learns meanwhile.
        PgShapes.Shape known = body == null ? null : shapes.known(body);
        boolean small = known != null && small(known, reading);
        return new Plan(sql, body, reading, known, small, small && asIs(known, reading.maxCellChars()));
    }

    /** How one statement's result is read: decided by {@link #plan}, then {@link #read(SqlConnection, Tuple)}. */
    public final class Plan {
        private final String sql;
        /** The query inside the statement, or null when it is not read as a subquery. */
        private final String body;
        private final Reading reading;
        /** Its columns when they are known, else null. */
        private final PgShapes.Shape known;
        /** Whether its result is small enough for one execute without a cursor ({@link PgResults#small}). */
        private final boolean small;
        /** Whether it is read by one statement of the query's own columns ({@link PgResults#readAsIs}). */
        private final boolean asIs;

        private Plan(String sql, String body, Reading reading, PgShapes.Shape known, boolean small, boolean asIs) {
            this.sql = sql;
            this.body = body;
            this.reading = reading;
            this.known = known;
            this.small = small;
            this.asIs = asIs;
        }

        /**
         * Whether the read is one statement that is sent to the connection as {@link #read}'s {@code Uni} is subscribed,
         * with nothing after it ({@link PgResults#readAsIs}: columns known, all as they are, a result small enough for
         * one execute), so the caller may send the transaction's end right behind it: the whole call is then one round
         * trip ({@code SessionTransaction}).
         */
        public boolean inOneStatement() {
            return asIs;
        }

        /** Reads the result on {@code connection}, {@code params} bound. */
        public Uni<Result> read(SqlConnection connection, Tuple params) {
            return PgResults.this.read(connection, params, this);
        }
    }

    /**
     * {@code run}, and once more when its columns had changed ({@link PgShapes.Changed}): the second run finds no kinds
     * kept for the statement, so its rows come as {@code to_json} of each row, whatever the columns are.
     */
    public static <T> Uni<T> againIfChanged(java.util.function.Supplier<Uni<T>> run) {
        return PgShapes.againIfChanged(run);
    }

    /**
     * Reads a statement's result. A read-only statement is run as a subquery whose values PostgreSQL
     * renders itself, after a cheap statement that learns its column names and types (an empty run,
     * {@code WHERE false}; {@code pg_typeof} for types the driver does not know), sent with it; see
     * {@link ResultValues} for why the driver's own decoding is not used. The first time a statement is
     * seen, PostgreSQL writes each row as JSON ({@code to_json}); once its columns are known
     * ({@link PgShapes}), each column as text or JSON by its type ({@link ColumnKind}), which costs
     * PostgreSQL a third as much for the same answer, and an integer column as the integer itself (its
     * digits are its text, and PostgreSQL makes none). An EXPLAIN (its plan is text or JSON already) and a
     * statement that writes (it cannot be a subquery) are read through the driver's values.
     */
    private Uni<Result> read(SqlConnection connection, Tuple params, Plan plan) {
        Reading reading = plan.reading;
        ReadProgress progress = new ReadProgress();
        if (plan.body == null) {
            Uni<RowSet<Row>> first = connection.prepare(plan.sql)
                    .onFailure(PgException.class).transform(failure -> new PgRefusal((PgException) failure, 0))
                    .flatMap(statement -> firstRead(statement, params, reading, progress));
            return readRows(first, null, reading, progress, 0);
        }
        String body = plan.body;
        PgShapes.Shape known = plan.known;
        if (plan.asIs) {
            return readAsIs(connection, body, params, reading, known, progress);
        }
        // The column names, the rows statement's preparation and its first read go to PostgreSQL together (the client
        // pipelines them on the connection): one round trip.
        // Wide values are cut by PostgreSQL, to what the answer keeps (WideValues), where a column's type lets them be.
        int cap = reading.maxCellChars();
        boolean small = plan.small;
        // OFFSET 0: the statement's own expressions are computed once, however often the select list names them.
        String prefix = (known == null ? PgStatementCache.ROWS_PREFIX + WideValues.rowJson()
                : PgStatementCache.COLUMNS_PREFIX + WideValues.selectList(known.kinds(), i -> known.within(i, cap),
                        known::integer, "q", cap))
                + " FROM (SELECT * FROM (";
        String suffix = "\n) AS b OFFSET 0) AS q"
                + (known == null ? "" : "(" + ColumnKind.aliases(known.kinds().size()) + ")");
        int shift = -prefix.length();
        Uni<List<ResultColumn>> described = describe(connection, body, params)
                .invoke(columns -> shapes.learn(body, known, columns.columns(), columns.longest()))
                .map(Described::columns);
        Uni<RowSet<Row>> first = small
                // The client keeps this statement prepared on the connection (PgStatementCache): PostgreSQL parses and
                // plans it once per connection, not once per call, and a single execute brings every row.
                ? connection.preparedQuery(prefix + body + suffix + "\nLIMIT " + (reading.maxRows() + 1))
                        .execute(params)
                : connection.prepare(prefix + body + suffix)
                        .onFailure(PgException.class)
                        .transform(failure -> new PgRefusal((PgException) failure, shift))
                        .flatMap(statement -> firstRead(statement, params, reading, progress));
        progress.shape = known;
        return readRows(first, described, reading, progress, shift);
    }

    /**
     * Whether every column of {@code shape} comes from PostgreSQL as the answer writes it: an integer (its digits), a
     * {@code numeric} whose type bounds its digits ({@code numeric(10, 2)}: its text, as PostgreSQL wrote it,
     * {@link #decimalText}) or a string its type keeps within {@code cap} (PostgreSQL has nothing to cut).
     */
    private static boolean asIs(PgShapes.Shape shape, int cap) {
        for (int i = 0; i < shape.kinds().size(); i++) {
            ColumnKind kind = shape.kinds().get(i);
            boolean bounded = kind == ColumnKind.DECIMAL ? shape.bounded(i)
                    : kind == ColumnKind.STRING && shape.within(i, cap);
            if (shape.integer(i) == null && !bounded) {
                return false;
            }
        }
        return !shape.kinds().isEmpty();
    }

    /**
     * PostgreSQL's text of a {@code numeric} value as the SQL client read it: the client asks for {@code numeric} as
     * text and parses it ({@code Numeric.parse}, a {@code BigDecimal} of the text, {@code NaN} apart), and a
     * {@code BigDecimal}'s plain string gives back the digits, the sign and the scale it was parsed from, trailing zeros
     * included ({@code 2.00}); {@code toString} would write small values with an exponent ({@code 1E-7}). A column
     * whose type bounds its digits never holds an infinity ({@link #asIs}).
     */
    private static String decimalText(Object value) {
        if (value instanceof Numeric numeric) {
            return numeric.isNaN() ? "NaN" : numeric.bigDecimalValue().toPlainString();
        }
        return value == null ? null : value.toString();
    }

    /**
     * Reads a small result of a statement whose columns are known and all come as they are ({@link #asIs}) in one
     * statement, the query's own columns unchanged: the statement the connection keeps learns the columns as it
     * reads the rows, and PostgreSQL refuses to run it once they changed ({@link PgStatementCache#resultChanged}), so
     * no statement that learns them runs beside it. Rows of columns other than the known ones are not read: the call
     * runs once more ({@link PgShapes.Changed}).
     */
    private Uni<Result> readAsIs(SqlConnection connection, String body, Tuple params, Reading reading,
            PgShapes.Shape known, ReadProgress progress) {
        String prefix = PgStatementCache.asIs(shapes.epoch());
        Uni<RowSet<Row>> rows = connection.preparedQuery(prefix + body + "\n) AS q\nLIMIT " + (reading.maxRows() + 1))
                .execute(params)
                .onFailure(PgStatementCache::resultChanged)
                .transform(failure -> shapes.stale(body))
                .invoke(rowSet -> shapes.learn(body, known, driverColumns(rowSet), longest(rowSet)));
        progress.shape = known;
        progress.asIs = true;
        return readRows(rows, null, reading, progress, -prefix.length());
    }

    /**
     * Whether a result of {@code shape} is small enough to be read without a cursor, in one execute of at most
     * {@code max-rows + 1} rows: when that many rows, each value at its longest as PostgreSQL sends it (strings and
     * JSON cut to {@code max-cell-chars} or shorter by their type, such as {@code varchar(200)}; a number or a boolean a
     * few characters), stay within what one cursor read brings ({@link #BATCH_CHARS}). With the defaults, a result of
     * one text column and a few numbers is; a {@code SELECT *} of a table with two text columns is not, nor a result
     * with a {@code numeric} column of no precision, whose values are sent whole at any length: a cursor reads those in
     * batches sized by what the rows brought.
     */
    private boolean small(PgShapes.Shape shape, Reading reading) {
        long row = 0;
        for (int i = 0; i < shape.kinds().size(); i++) {
            int longest = shape.longest().get(i);
            ColumnKind kind = shape.kinds().get(i);
            if (kind == ColumnKind.DECIMAL && !shape.bounded(i)) {
                return false;
            }
            boolean wide = kind == ColumnKind.STRING || kind == ColumnKind.JSON || kind == ColumnKind.DECIMAL;
            row += SHORT_VALUE_CHARS + (!wide ? 0
                    : longest == PgColumnLengths.UNBOUNDED ? reading.maxCellChars()
                            : Math.min(longest, reading.maxCellChars()));
        }
        return (reading.maxRows() + 1L) * row <= BATCH_CHARS;
    }

    /**
     * Opens the cursor of {@code statement}, kept in {@code progress} to be closed, and reads its first rows: a
     * few ({@link #FIRST_BATCH}), since their size is not known yet.
     */
    private static Uni<RowSet<Row>> firstRead(PreparedStatement statement, Tuple params, Reading reading,
            ReadProgress progress) {
        progress.statement = statement;
        progress.cursor = statement.cursor(params);
        return progress.cursor.read(Math.min(FIRST_BATCH, Math.min(reading.maxRows() + 1, reading.maxBatch())));
    }

    /**
     * The statement's columns: names from an empty run ({@code WHERE false}), types from {@code pg_typeof} over an empty outer
     * join. The empty run is a statement each connection keeps prepared (PostgreSQL parses and plans it once per
     * connection, not once per call): when the columns changed since, PostgreSQL refuses to run it
     * ({@link PgStatementCache#resultChanged}), and the call runs once more with its columns learned again
     * ({@link PgShapes#stale}).
     */
    private Uni<Described> describe(SqlConnection connection, String body, Tuple params) {
        String prefix = PgStatementCache.names(shapes.epoch());
        return connection.preparedQuery(prefix + body + NAMES_SUFFIX).execute(params)
                .onFailure(PgStatementCache::resultChanged)
                .transform(failure -> shapes.stale(body))
                .onFailure(PgException.class)
                .transform(failure -> new PgRefusal((PgException) failure, -prefix.length()))
                .flatMap(empty -> {
                    List<String> names = empty.columnsNames() == null ? List.of() : empty.columnsNames();
                    List<String> types = new ArrayList<>(names.size());
                    descriptors(empty).forEach(descriptor -> types.add(DriverTypes.name(descriptor)));
                    List<Integer> longest = longest(empty);
                    Uni<List<ResultColumn>> columns = types.contains(DriverTypes.UNKNOWN)
                            ? typesOfUnknown(connection, body, params, names, types)
                            : Uni.createFrom().item(ResultColumn.keyed(names, types));
                    return columns.map(complete -> new Described(complete, longest));
                });
    }

    /**
     * The names of the types the driver does not know (enums, composite and range types, …), from
     * {@code pg_typeof} over an empty outer join: one row whatever the statement returns, and the
     * statement itself does not run ({@code WHERE false}). Only asked when such a column is there.
     */
    private static Uni<List<ResultColumn>> typesOfUnknown(SqlConnection connection, String body, Tuple params,
            List<String> names, List<String> types) {
        StringBuilder prefix = new StringBuilder("SELECT ARRAY[");
        for (int i = 1; i <= names.size(); i++) {
            prefix.append(i > 1 ? ", " : "").append("pg_typeof(q.c").append(i).append(")::text");
        }
        prefix.append("]::text[] FROM (SELECT 1) AS o LEFT JOIN (SELECT * FROM (");
        int shift = -prefix.length();
        String query = prefix + body + "\n) AS s WHERE false) AS q(" + ColumnKind.aliases(names.size()) + ") ON true";
        return connection.preparedQuery(query).execute(params)
                .onFailure(PgException.class)
                .transform(failure -> new PgRefusal((PgException) failure, shift))
                .map(rows -> {
                    String[] named = rows.iterator().next().getArrayOfStrings(0);
                    List<String> complete = new ArrayList<>(types);
                    for (int i = 0; i < complete.size() && i < named.length; i++) {
                        if (complete.get(i).equals(DriverTypes.UNKNOWN)) {
                            complete.set(i, named[i]);
                        }
                    }
                    return ResultColumn.keyed(names, complete);
                });
    }

    /** A statement's columns as PostgreSQL describes them, and the most characters each one's value can have. */
    private record Described(List<ResultColumn> columns, List<Integer> longest) {
    }

    /** Rows read so far, kept ones written into the answer; {@code seen} counts every row read, kept or not. */
    private static final class ReadProgress {
        private List<ResultColumn> columns;
        private ResultJson answer;
        private int kept;
        private int seen;
        private long keptChars;
        private long readChars;
        private boolean full;
        /** Whether the rows are PostgreSQL's JSON of them (else the driver's values). */
        private boolean rendered;
        /** How each column's value comes, when it comes as a column of its own (else null). */
        private PgShapes.Shape shape;
        /** Whether the columns come as the query's own ({@link #readAsIs}): no column of cut strings follows them. */
        private boolean asIs;
        /** The statement the rows come from, once it is prepared. */
        private PreparedStatement statement;
        /** Its cursor, once it is open. */
        private Cursor cursor;
    }

    /**
     * Reads rows in batches, each value rendered and cut as it arrives, so a result never holds more
     * than one batch of whole rows: the first read ({@code first}) takes a few rows, later reads as many
     * as fit in {@link #BATCH_CHARS} at the size seen so far. Reading stops one row past the row limit,
     * or once the result-size cap is reached. {@code described} gives the columns of rendered rows
     * (null: the driver's columns); it and the first read are sent together.
     */
    private Uni<Result> readRows(Uni<RowSet<Row>> first, Uni<List<ResultColumn>> described, Reading reading,
            ReadProgress progress, int shift) {
        progress.rendered = described != null;
        Uni<RowSet<Row>> firstRows = described == null
                ? first
                // Both are waited for, failed or not, before anything else goes to the connection; the
                // column query's failure is the one reported when both fail (it was sent first).
                : Pipelined.bothAnswered(described, first).map(both -> {
                    progress.columns = both.getItem1();
                    return both.getItem2();
                });
        return firstRows
                .flatMap(rowSet -> afterRead(rowSet, reading, progress))
                .onFailure(PgException.class)
                .transform(failure -> new PgRefusal((PgException) failure, shift))
                // Not waited for: the transaction's end, sent right after it, closes the cursor anyway, so
                // the close and the ROLLBACK share a round trip; the connection keeps them in order.
                .eventually(() -> closeQuietly(progress));
    }

    /**
     * Closes the cursor and the statement the rows came from: a statement prepared with {@code prepare} (which a
     * cursor needs) is a named statement that the SQL client neither caches nor closes by itself, and PostgreSQL
     * would keep every one of them for as long as the pooled connection lives (one per call, without end).
     */
    private static void closeQuietly(ReadProgress progress) {
        if (progress.cursor != null) {
            progress.cursor.close().subscribe().with(closed -> {
            }, failure -> Log.debugf("A cursor could not be closed: %s", failure.toString()));
        }
        if (progress.statement != null) {
            progress.statement.close().subscribe().with(closed -> {
            }, failure -> Log.debugf("A prepared statement could not be closed: %s", failure.toString()));
        }
    }

    private Uni<Result> readBatch(Reading reading, ReadProgress progress) {
        int wanted = reading.maxRows() + 1 - progress.seen;
        int batch = (int) Math.max(1,
                Math.min(reading.maxBatch(), BATCH_CHARS / Math.max(1, progress.readChars / progress.seen)));
        return progress.cursor.read(Math.min(wanted, Math.min(batch, reading.maxBatch())))
                .flatMap(rowSet -> afterRead(rowSet, reading, progress));
    }

    /** Keeps what {@code rowSet} brought, then reads on or ends the result. */
    private Uni<Result> afterRead(RowSet<Row> rowSet, Reading reading, ReadProgress progress) {
        keep(rowSet, reading, progress);
        if (!progress.full && progress.seen <= reading.maxRows() && progress.cursor != null
                && progress.cursor.hasMore()) {
            return readBatch(reading, progress);
        }
        boolean truncated = progress.full || progress.seen > reading.maxRows();
        return Uni.createFrom().item(new Result(progress.columns, progress.answer.finish(progress.kept,
                progress.seen, truncated), progress.kept, progress.seen, truncated));
    }

    /** Writes the rows of {@code rowSet} into the answer, each value cut, until the row limit or the size cap. */
    private void keep(RowSet<Row> rowSet, Reading reading, ReadProgress progress) {
        boolean rendered = progress.rendered;
        int maxChars = reading.maxCellChars();
        if (progress.columns == null) {
            progress.columns = driverColumns(rowSet);
        }
        if (progress.answer == null) {
            progress.answer = new ResultJson(progress.columns, maxChars);
        }
        for (Row row : rowSet) {
            progress.seen++;
            if (progress.full || progress.kept >= reading.maxRows()) {
                continue;
            }
            long room = reading.maxResultChars() - progress.keptChars;
            long size;
            if (progress.shape != null) {
                PgShapes.Shape shape = progress.shape;
                // An integer comes as its value (Integer, Long, Short): its digits are PostgreSQL's text of it; a
                // numeric read as it is (asIs) as the client's parse of PostgreSQL's text.
                boolean asIs = progress.asIs;
                size = progress.answer.addTexts(shape.kinds(),
                        i -> shape.integer(i) != null ? Objects.toString(row.getValue(i), null)
                                : asIs && shape.kinds().get(i) == ColumnKind.DECIMAL ? decimalText(row.getValue(i))
                                        : row.getString(i),
                        asIs ? null : row.getString(shape.kinds().size()), room);
                progress.readChars += size;
            } else if (rendered) {
                String json = row.getString(0);
                if (json == null) {
                    // Longer than a first run reads whole: again, each column as text, cut by PostgreSQL (WideValues).
                    throw new PgShapes.Changed();
                }
                progress.readChars += json.length();
                size = progress.answer.addRendered(json, room);
            } else {
                List<JsonNode> values = new ArrayList<>(row.size());
                for (int i = 0; i < row.size(); i++) {
                    values.add(ResultValues.fromDriver(row.getValue(i), maxChars));
                }
                size = progress.answer.addValues(values, room);
                progress.readChars += size;
            }
            if (size > room) {
                progress.full = true;
                continue;
            }
            progress.keptChars += size;
            progress.kept++;
        }
    }

    private static List<ColumnDescriptor> descriptors(RowSet<Row> rowSet) {
        List<ColumnDescriptor> descriptors = rowSet.getDelegate().columnDescriptors();
        return descriptors == null ? List.of() : descriptors;
    }

    /** The most characters each column of {@code rowSet} can have as text ({@link PgColumnLengths}). */
    private static List<Integer> longest(RowSet<Row> rowSet) {
        List<Integer> longest = new ArrayList<>();
        descriptors(rowSet).forEach(descriptor -> longest.add(PgColumnLengths.of(descriptor)));
        return longest;
    }

    /** Columns of a result the driver decoded: names as sent, types as the driver knows them. */
    private static List<ResultColumn> driverColumns(RowSet<Row> rowSet) {
        List<String> names = rowSet.columnsNames() == null ? List.of() : rowSet.columnsNames();
        List<String> types = new ArrayList<>(names.size());
        for (ColumnDescriptor descriptor : descriptors(rowSet)) {
            types.add(DriverTypes.name(descriptor));
        }
        return ResultColumn.keyed(names, types);
    }
}
