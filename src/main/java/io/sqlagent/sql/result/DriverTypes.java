package io.sqlagent.sql.result;

import java.util.Locale;
import java.util.Map;

import io.vertx.sqlclient.desc.ColumnDescriptor;

/**
 * PostgreSQL's names for the types the driver reports for a result's columns: the driver names its
 * own constants ({@code INT4}, {@code TIMESTAMPTZ}), and types it does not know (enums, composite,
 * range and multirange types, {@code jsonpath}, …) as {@code UNKNOWN}, whose names are then asked
 * of PostgreSQL. A domain is reported as its base type (PostgreSQL describes result columns so).
 */
public final class DriverTypes {

    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("BOOL", "boolean"), Map.entry("INT2", "smallint"), Map.entry("INT4", "integer"),
            Map.entry("INT8", "bigint"), Map.entry("FLOAT4", "real"), Map.entry("FLOAT8", "double precision"),
            Map.entry("NUMERIC", "numeric"), Map.entry("MONEY", "money"), Map.entry("BIT", "bit"),
            Map.entry("VARBIT", "bit varying"), Map.entry("CHAR", "\"char\""), Map.entry("VARCHAR", "character varying"),
            Map.entry("BPCHAR", "character"), Map.entry("TEXT", "text"), Map.entry("NAME", "name"),
            Map.entry("DATE", "date"), Map.entry("TIME", "time without time zone"), Map.entry("TIMETZ", "time with time zone"),
            Map.entry("TIMESTAMP", "timestamp without time zone"), Map.entry("TIMESTAMPTZ", "timestamp with time zone"),
            Map.entry("INTERVAL", "interval"), Map.entry("BYTEA", "bytea"), Map.entry("MACADDR", "macaddr"),
            Map.entry("MACADDR8", "macaddr8"), Map.entry("INET", "inet"), Map.entry("CIDR", "cidr"), Map.entry("UUID", "uuid"),
            Map.entry("JSON", "json"), Map.entry("JSONB", "jsonb"), Map.entry("XML", "xml"), Map.entry("POINT", "point"),
            Map.entry("LINE", "line"), Map.entry("LSEG", "lseg"), Map.entry("BOX", "box"), Map.entry("PATH", "path"),
            Map.entry("POLYGON", "polygon"), Map.entry("CIRCLE", "circle"), Map.entry("OID", "oid"), Map.entry("VOID", "void"),
            Map.entry("TS_VECTOR", "tsvector"), Map.entry("TS_QUERY", "tsquery"));

    /** The name given to a type the driver does not know. */
    public static final String UNKNOWN = "unknown";

    private DriverTypes() {
    }

    /** The PostgreSQL name of a column's type, {@code unknown} where the driver does not know it. */
    public static String name(ColumnDescriptor column) {
        String driverName = column.typeName() == null ? "UNKNOWN" : column.typeName().toUpperCase(Locale.ROOT);
        String base = driverName.endsWith("_ARRAY") ? driverName.substring(0, driverName.length() - "_ARRAY".length())
                : driverName;
        String name = NAMES.getOrDefault(base, UNKNOWN);
        return driverName.endsWith("_ARRAY") && !name.equals(UNKNOWN) ? name + "[]" : name;
    }
}
