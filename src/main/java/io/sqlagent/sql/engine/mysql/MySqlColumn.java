package io.sqlagent.sql.engine.mysql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.Locale;

import io.sqlagent.sql.result.ColumnKind;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.mysqlclient.data.spatial.Geometry;
import io.vertx.mysqlclient.impl.datatype.DataType;
import io.vertx.mysqlclient.impl.protocol.ColumnDefinition;
import io.vertx.sqlclient.data.Numeric;
import io.vertx.sqlclient.desc.ColumnDescriptor;

/**
 * One column of a MySQL or MariaDB result: its type as the manuals name it ({@code decimal}, {@code bigint unsigned},
 * {@code datetime}) and how its values are written, exactly: integers of every width and {@code DECIMAL} with the
 * server's digits (unsigned {@code BIGINT} up to 2^64-1 included), {@code FLOAT} and {@code DOUBLE} as the shortest
 * digits that read back as the same number, {@code DATE} as {@code 2024-02-29}, {@code DATETIME} and {@code TIMESTAMP}
 * as ISO 8601 without offset ({@code 2024-01-02T03:04:05.12}: the fraction's trailing zeros dropped, as PostgreSQL's
 * {@code to_json} drops them), {@code TIME} as the server prints it ({@code -838:59:59}, a duration that may pass 24
 * hours), {@code YEAR} as a number, {@code BIT} as its bits ({@code 101}, without the column's leading zeros: the
 * driver does not report the width), binary strings as {@code 0x} and upper-case hex (what {@code mariadb
 * --binary-as-hex} prints), spatial values as WKT ({@code POINT(1 2)}) and MySQL's {@code JSON} as JSON. MariaDB's
 * {@code JSON} is a {@code LONGTEXT} on the wire, with nothing that marks it, so its documents come as strings holding
 * the text as stored.
 *
 * @param type the column's type name
 * @param kind how {@link io.sqlagent.sql.result.ResultJson} writes the texts of {@link #render}
 * @param bits whether the column is {@code BIT}, whose values the driver hands over as {@code Long}
 */
record MySqlColumn(String type, ColumnKind kind, boolean bits) {

    /** MySQL's column flags (the protocol's {@code ColumnDefinition41}). */
    private static final int UNSIGNED = 0x20;
    private static final int ENUM = 0x100;
    private static final int SET = 0x800;

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** The column the driver describes as {@code descriptor}. */
    static MySqlColumn of(ColumnDescriptor descriptor) {
        if (!(descriptor instanceof ColumnDefinition definition)) {
            return new MySqlColumn("unknown", ColumnKind.STRING, false);
        }
        boolean unsigned = (definition.flags() & UNSIGNED) != 0;
        DataType type = definition.type();
        return switch (type) {
            case INT8, U_INT8 -> number("tinyint", unsigned);
            case INT16, U_INT16 -> number("smallint", unsigned);
            case INT24, U_INT24 -> number("mediumint", unsigned);
            case INT32, U_INT32 -> number("int", unsigned);
            case INT64, U_INT64 -> number("bigint", unsigned);
            case NUMERIC -> number("decimal", unsigned);
            case FLOAT -> number("float", unsigned);
            case DOUBLE -> number("double", unsigned);
            case YEAR -> number("year", false);
            case BIT -> new MySqlColumn("bit", ColumnKind.STRING, true);
            case JSON -> new MySqlColumn("json", ColumnKind.JSON, false);
            case STRING -> string((definition.flags() & ENUM) != 0 ? "enum" : (definition.flags() & SET) != 0 ? "set" : "char");
            case VARSTRING -> string("varchar");
            case TINY_TEXT, TEXT, MEDIUM_TEXT, LONG_TEXT, TINY_BLOB, BLOB, MEDIUM_BLOB, LONG_BLOB, BINARY, VARBINARY,
                    DATE, TIME, DATETIME, TIMESTAMP, GEOMETRY, NULL ->
                string(type.name().toLowerCase(Locale.ROOT).replace("_", ""));
            default -> string("unknown");
        };
    }

    private static MySqlColumn number(String name, boolean unsigned) {
        return new MySqlColumn(unsigned ? name + " unsigned" : name, ColumnKind.NUMBER, false);
    }

    private static MySqlColumn string(String name) {
        return new MySqlColumn(name, ColumnKind.STRING, false);
    }

    /** The text {@link #kind} writes for {@code value} as the driver decoded it; null for SQL NULL. */
    String render(Object value) {
        if (value == null) {
            return null;
        }
        if (kind == ColumnKind.JSON) {
            // MySQL's JSON type, decoded by the driver into objects, arrays and scalars: written back as JSON.
            return Json.encode(value);
        }
        if (value instanceof Long number && bits) {
            return Long.toBinaryString(number);
        }
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long
                || value instanceof BigInteger) {
            return value.toString();
        }
        if (value instanceof Numeric numeric) {
            return numeric.bigDecimalValue().toPlainString();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof Double number) {
            return shortest(Double.toString(number));
        }
        if (value instanceof Float number) {
            return shortest(Float.toString(number));
        }
        if (value instanceof LocalDateTime dateTime) {
            return dateTime.toLocalDate() + "T" + clock(dateTime.getHour(), dateTime.getMinute(), dateTime.getSecond(),
                    dateTime.getNano());
        }
        if (value instanceof LocalDate date) {
            return date.toString();
        }
        if (value instanceof Duration duration) {
            Duration size = duration.abs();
            return (duration.isNegative() ? "-" : "")
                    + clock(size.toHours(), size.toMinutesPart(), size.toSecondsPart(), size.toNanosPart());
        }
        if (value instanceof Buffer buffer) {
            return "0x" + HEX.formatHex(buffer.getBytes());
        }
        if (value instanceof Geometry geometry) {
            return Wkt.of(geometry);
        }
        return value.toString();
    }

    /**
     * Java's digits of a float or double ({@code 1.0E300}, {@code 1500.0}) in the spelling the server uses
     * ({@code 1e300}, {@code 1500}): the same shortest digits, which read back as the same number.
     */
    static String shortest(String java) {
        String text = java.replace(".0E", "E").replace('E', 'e');
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }

    /** {@code hh:mm:ss} and the fraction's digits without trailing zeros; hours may pass 24 ({@code TIME}). */
    private static String clock(long hours, int minutes, int seconds, int nanos) {
        StringBuilder text = new StringBuilder(18);
        text.append(hours < 10 ? "0" : "").append(hours).append(minutes < 10 ? ":0" : ":").append(minutes)
                .append(seconds < 10 ? ":0" : ":").append(seconds);
        if (nanos > 0) {
            String fraction = String.format(Locale.ROOT, "%09d", nanos);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            text.append('.').append(fraction, 0, end);
        }
        return text.toString();
    }
}
