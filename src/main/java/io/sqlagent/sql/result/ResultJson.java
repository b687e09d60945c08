package io.sqlagent.sql.result;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.IntFunction;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.SnakeCaseJson;

/**
 * Writes a result's answer, {@code {"columns":[…],"rows":[{…}],"row_count","total_rows","truncated"}},
 * as UTF-8 JSON while its rows are read: each row goes from PostgreSQL's JSON of it straight into the
 * answer's bytes, its values cut as {@link ResultValues} cuts them, with no node per value and no second
 * tree of row objects on the way (a 3,503-row result used to be about 4 MB of Java objects for 0.6 MB of
 * JSON, and most of a call's CPU). The bytes are those {@link SnakeCaseJson#MAPPER} writes for the tree of
 * the same result: the generator is the mapper's, and structured values (JSON, arrays, composite
 * values: rare, and their duplicate keys must collapse as a tree collapses them) still go through a
 * tree.
 *
 * <p>
 * A row is written before its size is known; one that does not fit the room the caller gives is taken
 * back out. After that no more rows may be added: a result stops at the first row that does not fit.
 */
public final class ResultJson {

    private final Output out = new Output();
    private final JsonGenerator generator;
    private final List<ResultColumn> columns;
    private final SerializedString[] keys;
    private final int maxChars;
    private int rowsStart;
    private boolean closed;

    /**
     * @param columns the result's columns; each row's values are written under their keys, in order
     * @param maxChars longest string kept whole, and longest JSON text of a structured value kept as structure
     */
    public ResultJson(List<ResultColumn> columns, int maxChars) {
        this.columns = columns;
        this.maxChars = maxChars;
        this.keys = new SerializedString[columns.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new SerializedString(columns.get(i).key());
        }
        try {
            generator = SnakeCaseJson.MAPPER.createGenerator(out);
            generator.writeStartObject();
            generator.writeArrayFieldStart("columns");
            for (ResultColumn column : columns) {
                generator.writeStartObject();
                generator.writeStringField("name", column.name());
                generator.writeStringField("type", column.type());
                generator.writeStringField("key", column.key());
                generator.writeEndObject();
            }
            generator.writeEndArray();
            generator.writeArrayFieldStart("rows");
            generator.flush();
            rowsStart = out.size() - 1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Adds the row PostgreSQL rendered as {@code rowJson} ({@code to_json} of the row: its values in column order)
     * when it fits in {@code room} characters, as a result's size is counted (two for the braces, then for each
     * value its key's length, four, and {@link ResultValues#jsonSize} of the value as cut).
     *
     * @return the row's size; larger than {@code room} when it was not added
     */
    public long addRendered(String rowJson, long room) {
        requireOpen();
        int mark = out.size() + generator.getOutputBuffered();
        long size = 2;
        try (JsonParser parser = ResultValues.parser(rowJson)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalStateException("a row was not a JSON object");
            }
            generator.writeStartObject();
            int column = 0;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                if (column == keys.length) {
                    throw new IllegalStateException("a row had more values than its result has columns");
                }
                size += key(column++) + 4;
                parser.nextToken();
                size += value(parser, rowJson);
            }
            for (; column < keys.length; column++) {
                size += key(column) + 4 + 4;
                generator.writeNull();
            }
            generator.writeEndObject();
            if (size > room) {
                takeBack(mark);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL's JSON of a row could not be read", e);
        }
        return size;
    }

    /**
     * Adds a row whose values PostgreSQL sent one text per column, as {@code kinds} says ({@link ColumnKind}; a
     * null is SQL NULL), when it fits in {@code room} characters (counted as for {@link #addRendered}). The bytes
     * are those {@link #addRendered} writes for the same row's {@code to_json}.
     *
     * @return the row's size; larger than {@code room} when it was not added
     */
    public long addTexts(List<ColumnKind> kinds, IntFunction<String> texts, long room) {
        return addTexts(kinds, texts, null, room);
    }

    /**
     * As {@link #addTexts(List, IntFunction, long)}, for a row whose wide values PostgreSQL cut
     * ({@link WideValues#selectList}): {@code cuts} is the row's column of string columns cut, a {@code to_json}
     * column cut starts with {@code !}.
     */
    public long addTexts(List<ColumnKind> kinds, IntFunction<String> texts, String cuts, long room) {
        requireOpen();
        long[] cut = WideValues.stringCuts(cuts, kinds.size());
        int mark = out.size() + generator.getOutputBuffered();
        long size = 2;
        try {
            generator.writeStartObject();
            for (int column = 0; column < keys.length; column++) {
                size += key(column) + 4;
                String text = column < kinds.size() ? texts.apply(column) : null;
                size += text == null ? nullValue() : switch (kinds.get(column)) {
                    case NUMBER, DECIMAL -> number(text);
                    case BOOLEAN -> bool(text);
                    case STRING -> cut != null && cut[column] > 0 ? string(ResultValues.cutPrefix(text, cut[column], maxChars))
                            : text.length() > maxChars ? string(ResultValues.cut(text, maxChars)) : string(text);
                    case JSON -> text.startsWith("!") ? cutJson(text) : json(text);
                };
            }
            generator.writeEndObject();
            if (size > room) {
                takeBack(mark);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return size;
    }

    private long nullValue() throws IOException {
        generator.writeNull();
        return 4;
    }

    /**
     * A number as {@code to_json} writes it: the digits as PostgreSQL wrote them, or a string where JSON has no such number.
     */
    private long number(String text) throws IOException {
        if (!ColumnKind.isJsonNumber(text)) {
            return string(text);
        }
        generator.writeNumber(text);
        return text.length();
    }

    private long bool(String text) throws IOException {
        return switch (text) {
            case "true" -> {
                generator.writeBoolean(true);
                yield 4;
            }
            case "false" -> {
                generator.writeBoolean(false);
                yield 5;
            }
            default -> throw new IllegalStateException("a boolean's text was neither true nor false");
        };
    }

    /** A {@code to_json} value PostgreSQL cut: {@code !<length>:<first characters>} ({@link WideValues}). */
    private long cutJson(String text) throws IOException {
        int colon = text.indexOf(':');
        return string(ResultValues.cutPrefix(text.substring(colon + 1), Long.parseLong(text, 1, colon, 10), maxChars));
    }

    /** One value's {@code to_json}, written as a value of a row's {@code to_json} is. */
    private long json(String text) throws IOException {
        try (JsonParser parser = ResultValues.parser(text)) {
            if (parser.nextToken() == null) {
                throw new IllegalStateException("a value's JSON was empty");
            }
            return value(parser, text);
        }
    }

    /**
     * Adds a row of values the driver decoded ({@link ResultValues#fromDriver}), in column order, when it fits in
     * {@code room} characters (counted as for {@link #addRendered}).
     *
     * @return the row's size; larger than {@code room} when it was not added
     */
    public long addValues(List<JsonNode> values, long room) {
        requireOpen();
        long size = 2;
        for (int i = 0; i < values.size(); i++) {
            size += columns.get(i).key().length() + 4 + ResultValues.jsonSize(values.get(i));
        }
        if (size > room) {
            closed = true;
            return size;
        }
        try {
            generator.writeStartObject();
            for (int i = 0; i < keys.length; i++) {
                generator.writeFieldName(keys[i]);
                JsonNode value = i < values.size() ? values.get(i) : null;
                if (value == null || value.isNull()) {
                    generator.writeNull();
                } else {
                    SnakeCaseJson.MAPPER.writeTree(generator, value);
                }
            }
            generator.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return size;
    }

    /** The answer, with the counts and flag that follow its rows; nothing may be added afterwards. */
    public Written finish(int rowCount, int totalRows, boolean truncated) {
        closed = true;
        try {
            generator.writeEndArray();
            generator.flush();
            int rowsEnd = out.size();
            generator.writeNumberField("row_count", rowCount);
            generator.writeNumberField("total_rows", totalRows);
            generator.writeBooleanField("truncated", truncated);
            generator.writeEndObject();
            generator.close();
            return new Written(out.toByteArray(), rowsStart, rowsEnd);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A result's answer as UTF-8 JSON.
     *
     * @param json the answer
     * @param rowsStart the offset of its rows array's {@code [}
     * @param rowsEnd the offset just past that array's {@code ]}
     */
    public record Written(byte[] json, int rowsStart, int rowsEnd) {
    }

    private int key(int column) throws IOException {
        generator.writeFieldName(keys[column]);
        return keys[column].getValue().length();
    }

    /** Writes the value at the parser's token as {@link ResultValues} renders it; returns its size. */
    private long value(JsonParser parser, String rowJson) throws IOException {
        switch (parser.currentToken()) {
            case START_OBJECT, START_ARRAY -> {
                int start = (int) parser.currentTokenLocation().getCharOffset();
                JsonNode structure = ResultValues.structure(parser);
                int end = (int) parser.currentLocation().getCharOffset();
                if (end - start > maxChars) {
                    return string(ResultValues.cut(rowJson.substring(start, end), maxChars));
                }
                SnakeCaseJson.MAPPER.writeTree(generator, structure);
                return ResultValues.jsonSize(structure);
            }
            case VALUE_STRING -> {
                int length = parser.getTextLength();
                if (length > maxChars) {
                    return string(ResultValues.cut(parser.getText(), maxChars));
                }
                generator.writeString(parser.getTextCharacters(), parser.getTextOffset(), length);
                return length + 2L;
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                // PostgreSQL's digits as they are (see ExactNumberNode): never read as a double or a BigDecimal.
                int length = parser.getTextLength();
                generator.writeNumber(parser.getTextCharacters(), parser.getTextOffset(), length);
                return length;
            }
            case VALUE_TRUE -> {
                generator.writeBoolean(true);
                return 4;
            }
            case VALUE_FALSE -> {
                generator.writeBoolean(false);
                return 5;
            }
            case VALUE_NULL -> {
                generator.writeNull();
                return 4;
            }
            default -> throw new IllegalStateException("unexpected JSON token " + parser.currentToken());
        }
    }

    private long string(String text) throws IOException {
        generator.writeString(text);
        return text.length() + 2L;
    }

    /** Removes what was written from {@code mark} on: a row that did not fit, the last one a result may get. */
    private void takeBack(int mark) throws IOException {
        generator.flush();
        out.truncate(mark);
        closed = true;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("no rows may be added after one that did not fit, or after the end");
        }
    }

    /**
     * A byte array output that can be cut back to an earlier size (its methods lock nothing that matters here). It
     * starts small: most results are a few hundred bytes, its buffer is garbage once the answer is copied out, and the
     * generator hands over its own 8,000-byte buffer at a time, so a large result grows to that at its first write
     * anyway. An 8 KB start was a tenth of the bytes a {@code count(*)} call allocated.
     */
    private static final class Output extends ByteArrayOutputStream {

        Output() {
            super(256);
        }

        void truncate(int size) {
            count = size;
        }
    }
}
