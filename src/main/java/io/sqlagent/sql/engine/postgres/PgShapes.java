package io.sqlagent.sql.engine.postgres;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.result.ColumnKind;
import io.sqlagent.sql.result.ResultColumn;
import io.sqlagent.sql.result.WideValues;

/**
 * The kinds of the columns of the statements run lately ({@link ColumnKind}), by statement text: a statement seen
 * before has its rows statement built for them and sent with the statement that describes its columns, which checks
 * them ({@link #learn}); a statement whose columns changed is run once more ({@link #againIfChanged}). Bounded by the
 * characters of the texts kept.
 */
final class PgShapes {

    /**
     * The integer types, as {@code DriverTypes} names them: their binary form is their value, whose digits are exactly
     * the text PostgreSQL writes (and {@code to_json} too).
     */
    private static final Set<String> INTEGERS = Set.of("smallint", "integer", "bigint");

    /** About how many characters of statement text {@link #shapes} keeps. */
    private static final long SHAPE_CACHE_CHARS = 4_000_000;

    private final Cache<String, Shape> shapes = Caffeine.newBuilder()
            .maximumWeight(SHAPE_CACHE_CHARS)
            .weigher((String body, Shape shape) -> body.length() + 16 + 3 * shape.kinds().size())
            .build();

    /**
     * What a statement's rows statement is built for.
     *
     * @param kinds how each column's value is asked for ({@link ColumnKind})
     * @param longest the most characters each column's value can have as text, {@link PgColumnLengths#UNBOUNDED}
     *        when its type does not say
     * @param integers for each column of an integer type, the type, else null: such a column is read in the binary
     *        form PostgreSQL sends it in, which costs PostgreSQL less than making its text ({@link PgResults})
     */
    record Shape(List<ColumnKind> kinds, List<Integer> longest, List<String> integers) {

        Shape {
            kinds = List.copyOf(kinds);
            longest = List.copyOf(longest);
            integers = Collections.unmodifiableList(new ArrayList<>(integers));
        }

        /** The shape of {@code columns}, each at most {@code longest} characters long. */
        static Shape of(List<ResultColumn> columns, List<Integer> longest) {
            List<String> integers = new ArrayList<>(columns.size());
            for (ResultColumn column : columns) {
                integers.add(INTEGERS.contains(column.type()) ? column.type() : null);
            }
            return new Shape(ColumnKind.of(columns), longest, integers);
        }

        /** The integer type column {@code index} is read as (its binary form, no text made), or null: read as text. */
        String integer(int index) {
            return integers.get(index);
        }

        /** Whether column {@code index}'s type bounds how many characters its values have. */
        boolean bounded(int index) {
            return longest.get(index) != PgColumnLengths.UNBOUNDED;
        }

        /** Whether a value of column {@code index} never has more than {@code cap} characters. */
        boolean within(int index, int cap) {
            return bounded(index) && longest.get(index) <= cap;
        }
    }

    /**
     * Which names statements are current ({@link PgStatementCache#names}): a new epoch after a kept one found its
     * columns changed, so that every connection prepares its names statements afresh rather than run ones PostgreSQL
     * refuses. The client drops a refused statement itself only when it reads the refusal's English message.
     */
    private final AtomicLong epoch = new AtomicLong();

    /** The epoch of the names statements to run now. */
    long epoch() {
        return epoch.get();
    }

    /**
     * A kept names statement of {@code body} was refused because its columns changed since the connection prepared
     * it: forgets its kinds, starts a new epoch, and gives the failure that runs the statement once more.
     */
    Changed stale(String body) {
        shapes.invalidate(body);
        epoch.incrementAndGet();
        return new Changed();
    }

    /** The shape of {@code body}'s columns when its last run learned it, else null. */
    Shape known(String body) {
        return shapes.getIfPresent(body);
    }

    /**
     * Keeps the shape of a statement's columns for its next run, once PostgreSQL described them ({@code longest} of
     * each, {@link PgColumnLengths}); fails with {@link Changed} when this run's rows statement was built for another
     * shape (the tables changed since the last run), whose rows could not be read as they are.
     */
    void learn(String body, Shape known, List<ResultColumn> columns, List<Integer> longest) {
        Shape shape = Shape.of(columns, longest);
        if (known != null && !known.equals(shape)) {
            shapes.invalidate(body);
            throw new Changed();
        }
        if (known == null && !shape.kinds().isEmpty()) {
            shapes.put(body, shape);
        }
    }

    /**
     * A statement's columns changed kind since its last run: its rows were asked for as they were; or a first run's
     * row was too long to read as {@code to_json} ({@link WideValues#ROW_JSON_BOUND}). Never reaches a caller: the
     * statement is run once more, on a new connection, with its columns learned again ({@link #againIfChanged}).
     */
    static final class Changed extends RuntimeException {
        Changed() {
            super("the statement's columns changed since its last run", null, false, false);
        }
    }

    /**
     * {@code run}, and once more when its columns had changed ({@link Changed}): the second run finds no kinds
     * kept for the statement, so its rows come as {@code to_json} of each row, whatever the columns are.
     */
    static <T> Uni<T> againIfChanged(Supplier<Uni<T>> run) {
        // Twice at most: a run whose columns changed reads rows as to_json, and a row too long for that
        // (WideValues.ROW_JSON_BOUND) sends it once more, with the columns it has just learned.
        return run.get().onFailure(Changed.class)
                .recoverWithUni(failure -> run.get().onFailure(Changed.class).recoverWithUni(again -> run.get()));
    }
}
