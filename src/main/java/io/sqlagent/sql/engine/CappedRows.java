package io.sqlagent.sql.engine;

import java.util.List;
import java.util.function.IntFunction;

import io.sqlagent.sql.result.ColumnKind;
import io.sqlagent.sql.result.ResultColumn;
import io.sqlagent.sql.result.ResultJson;

/**
 * The caps of a result, the same whatever the engine: rows are written into the answer as they arrive until
 * {@code maxRows} are kept or the next one would pass {@code maxResultChars}; the row past the limit is counted, so
 * {@code truncated} says there were more, and nothing after it is kept. An engine that renders each value as a text of
 * a {@link ColumnKind} kind hands its rows here one by one ({@link #offer}) and knows from {@link #wantsMore} when it
 * may stop reading.
 */
public final class CappedRows {

    private final ResultReader.Caps caps;
    private final List<ResultColumn> columns;
    private final List<ColumnKind> kinds;
    private final ResultJson answer;
    private int kept;
    private int seen;
    private long keptChars;
    private boolean full;

    /**
     * @param columns the result's columns
     * @param kinds how each column's texts are written (numbers as JSON numbers, strings cut, JSON as structure)
     */
    public CappedRows(List<ResultColumn> columns, List<ColumnKind> kinds, ResultReader.Caps caps) {
        this.caps = caps;
        this.columns = List.copyOf(columns);
        this.kinds = List.copyOf(kinds);
        this.answer = new ResultJson(this.columns, caps.maxCellChars());
    }

    /** Whether another row would still be looked at: false once one past the row limit was seen, or the size cap hit. */
    public boolean wantsMore() {
        return !full && seen <= caps.maxRows();
    }

    /**
     * Counts a row and writes it when it is still wanted and fits; {@code texts} gives each column's text (null for
     * SQL NULL) and is only asked when the row is written.
     */
    public void offer(IntFunction<String> texts) {
        if (!wantsMore()) {
            return;
        }
        seen++;
        if (kept >= caps.maxRows()) {
            return;
        }
        long room = caps.maxResultChars() - keptChars;
        long size = answer.addTexts(kinds, texts, room);
        if (size > room) {
            full = true;
            return;
        }
        keptChars += size;
        kept++;
    }

    /** The result; nothing may be offered afterwards. */
    public ResultReader.Result finish() {
        boolean truncated = full || seen > caps.maxRows();
        return new ResultReader.Result(columns, answer.finish(kept, seen, truncated), kept, seen, truncated);
    }
}
