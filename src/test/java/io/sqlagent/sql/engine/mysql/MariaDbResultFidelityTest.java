package io.sqlagent.sql.engine.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.sql.engine.ResultReader;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.sqlclient.PoolOptions;

/**
 * Every MariaDB type comes out of the engine's result reader as MariaDB means it, as PostgreSQL's do out of
 * {@code run_sql} (ResultFidelityTest): a table with one column of each type, three rows of edge values and a row of
 * NULLs, read as the source's account in the engine's session, compared value by value with MariaDB's own text of the
 * value ({@code CAST(c AS CHAR)}, {@code HEX}, {@code BIN}, {@code ST_AsText}), by the documented rules (MySqlColumn):
 * integers and decimals are JSON numbers with exactly the server's digits, {@code FLOAT}/{@code DOUBLE} JSON numbers
 * that read back as the same number, {@code DATETIME}/{@code TIMESTAMP} ISO 8601 with the fraction's trailing zeros
 * dropped, {@code TIME} the server's text likewise, binary strings {@code 0x} and hex, {@code BIT} its bits, spatial
 * values WKT, everything else the server's text.
 */
class MariaDbResultFidelityTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final ResultReader.Caps CAPS = new ResultReader.Caps(100, 1_000_000, 10_000);
    private static final String ONES = "1".repeat(64);

    /** How a column's value is compared with the server's text of it. */
    private enum Rule {
        /** A JSON number with exactly the server's digits. */
        DIGITS,
        /** A JSON number equal to the server's as a float. */
        FLOAT,
        /** A JSON number equal to the server's as a double. */
        DOUBLE,
        /** A string: the server's text, a space before the time made {@code T}, the fraction's trailing zeros dropped. */
        ISO,
        /** A string equal to the server's text. */
        TEXT,
        /** A string: {@code 0x} and the server's {@code HEX}. */
        HEX,
        /** A string: the server's {@code BIN}. */
        BITS,
        /** A string: the server's {@code ST_AsText}. */
        WKT
    }

    private record Column(String name, String type, Rule rule, String... values) {
    }

    /** Name, type, rule and three values (SQL literals), in table order; a fourth row is all NULL. */
    private static final List<Column> COLUMNS = List.of(
            new Column("ti", "TINYINT", Rule.DIGITS, "-128", "127", "0"),
            new Column("tiu", "TINYINT UNSIGNED", Rule.DIGITS, "255", "0", "1"),
            new Column("si", "SMALLINT", Rule.DIGITS, "-32768", "32767", "0"),
            new Column("mi", "MEDIUMINT", Rule.DIGITS, "-8388608", "8388607", "0"),
            new Column("i", "INT", Rule.DIGITS, "-2147483648", "2147483647", "0"),
            new Column("iu", "INT UNSIGNED", Rule.DIGITS, "4294967295", "0", "7"),
            new Column("bi", "BIGINT", Rule.DIGITS, "-9223372036854775808", "9223372036854775807", "0"),
            new Column("biu", "BIGINT UNSIGNED", Rule.DIGITS, "18446744073709551615", "9223372036854775808", "0"),
            new Column("dec_big", "DECIMAL(65,30)", Rule.DIGITS,
                    "12345678901234567890123456789012345.123456789012345678901234567890",
                    "-0.000000000000000000000000000001", "0"),
            new Column("dec_money", "DECIMAL(10,2)", Rule.DIGITS, "270.00", "-0.01", "99999999.99"),
            new Column("dec_int", "DECIMAL(20,0)", Rule.DIGITS, "99999999999999999999", "-1", "0"),
            new Column("f", "FLOAT", Rule.FLOAT, "1.1", "-3.40282e38", "1.17549e-38"),
            new Column("d", "DOUBLE", Rule.DOUBLE, "0.1", "1e300", "-2.2250738585072014e-308"),
            new Column("b1", "BIT(1)", Rule.BITS, "b'1'", "b'0'", "b'1'"),
            new Column("b8", "BIT(8)", Rule.BITS, "b'10101010'", "b'00000000'", "b'00000101'"),
            new Column("b64", "BIT(64)", Rule.BITS, "b'" + ONES + "'", "b'1" + "0".repeat(63) + "'", "b'0'"),
            new Column("day", "DATE", Rule.TEXT, "'2024-02-29'", "'1000-01-01'", "'9999-12-31'"),
            new Column("clock", "TIME(6)", Rule.ISO, "'-838:59:59'", "'838:59:59'", "'00:00:00.000001'"),
            new Column("clock0", "TIME", Rule.ISO, "'12:34:56'", "'-00:00:01'", "'00:00:00'"),
            new Column("dt", "DATETIME(6)", Rule.ISO, "'2024-01-02 03:04:05.123456'", "'1000-01-01 00:00:00'",
                    "'9999-12-31 23:59:59.999999'"),
            new Column("dt3", "DATETIME(3)", Rule.ISO, "'2024-01-02 03:04:05.120'", "'2024-01-02 03:04:00'",
                    "'2024-01-02 00:00:00.001'"),
            new Column("ts", "TIMESTAMP(6) NULL", Rule.ISO, "'1970-01-01 00:00:01'", "'2038-01-19 03:14:07.999999'",
                    "'2024-06-01 12:00:00.5'"),
            new Column("yr", "YEAR", Rule.DIGITS, "2024", "1901", "2155"),
            new Column("fixed", "CHAR(5)", Rule.TEXT, "'ab'", "''", "'abcde'"),
            new Column("vary", "VARCHAR(50)", Rule.TEXT, "'with space '", "''", "'NULL'"),
            new Column("txt", "TEXT", Rule.TEXT, "CONCAT('line', CHAR(10), 'break \"quoted\" ', CHAR(92), ' backslash')",
                    "'hé 😀 ü'", "''"),
            new Column("bin", "BINARY(4)", Rule.HEX, "X'000102FF'", "X'00000000'", "X'FF'"),
            new Column("vbin", "VARBINARY(10)", Rule.HEX, "X''", "X'00'", "X'DEADBEEF'"),
            new Column("blb", "BLOB", Rule.HEX, "X'0A0B'", "X''", "X'00FF00'"),
            new Column("mood", "ENUM('sad','happy')", Rule.TEXT, "'happy'", "'sad'", "'happy'"),
            new Column("flags", "SET('a','b','c')", Rule.TEXT, "'a,c'", "''", "'b'"),
            new Column("doc", "JSON", Rule.TEXT, "'{\"b\": [1, 2.50, null], \"a\": \"x\"}'", "'[]'", "'null'"),
            new Column("geo", "GEOMETRY", Rule.WKT, "ST_GeomFromText('POINT(1.5 -2)')",
                    "ST_GeomFromText('LINESTRING(0 0,1 1)')", "ST_GeomFromText('POLYGON((0 0,1 1,1 0,0 0))')"),
            new Column("id", "UUID", Rule.TEXT, "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'",
                    "'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'"),
            new Column("addr", "INET6", Rule.TEXT, "'::1'", "'2001:db8::ff00:42:8329'", "'::ffff:1.2.3.4'"),
            new Column("yes", "BOOLEAN", Rule.DIGITS, "true", "false", "1"));

    /** The types the answer names, in column order. */
    private static final List<String> TYPES = List.of("tinyint", "tinyint unsigned", "smallint", "mediumint", "int",
            "int unsigned", "bigint", "bigint unsigned", "decimal", "decimal", "decimal", "float", "double", "bit", "bit",
            "bit", "date", "time", "time", "datetime", "datetime", "timestamp", "year", "char", "varchar", "text",
            "binary", "varbinary", "blob", "enum", "set", "text", "geometry", "char", "char", "tinyint");

    private static MariaDbServer server;
    private static Vertx vertx;
    private static Pool agent;
    private static Pool root;
    private static EngineSession session;

    @BeforeAll
    static void createTheTable() {
        server = MariaDbServer.get();
        StringBuilder table = new StringBuilder("CREATE OR REPLACE TABLE shop.all_types (row_id INT PRIMARY KEY");
        COLUMNS.forEach(column -> table.append(", ").append(column.name()).append(' ').append(column.type()));
        table.append(") DEFAULT CHARSET = utf8mb4");
        StringBuilder rows = new StringBuilder("INSERT INTO shop.all_types VALUES ");
        for (int r = 1; r <= 4; r++) {
            rows.append(r > 1 ? ", (" : "(").append(r);
            for (Column column : COLUMNS) {
                rows.append(", ").append(r == 4 ? "NULL" : column.values()[r - 1]);
            }
            rows.append(')');
        }
        server.root("SET NAMES utf8mb4; " + table + "; " + rows + ";");
        vertx = Vertx.vertx();
        MySqlEngine engine = MySqlEngine.mariaDb();
        agent = Pool.newInstance(engine.pool(vertx, server.agentUrl(), new PoolOptions().setMaxSize(2)));
        root = Pool.newInstance(engine.pool(vertx, server.rootUrl(), new PoolOptions().setMaxSize(1)));
        session = new EngineSession(engine, agent, LIMIT);
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            agent.close().await().indefinitely();
            root.close().await().indefinitely();
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** MariaDB's own text of every value, by row: what the rules compare with. */
    private static List<List<String>> serverTexts() {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < COLUMNS.size(); i++) {
            Column column = COLUMNS.get(i);
            String name = column.name();
            select.append(i > 0 ? ", " : "").append(switch (column.rule()) {
                case HEX -> "HEX(" + name + ")";
                case BITS -> "BIN(" + name + " + 0)";
                case WKT -> "ST_AsText(" + name + ")";
                default -> "CAST(" + name + " AS CHAR)";
            });
        }
        select.append(" FROM shop.all_types ORDER BY row_id");
        List<List<String>> texts = new ArrayList<>();
        for (Row row : root.query(select.toString()).execute().await().atMost(LIMIT)) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                values.add(row.getString(i));
            }
            texts.add(values);
        }
        return texts;
    }

    @Test
    void everyValueIsWhatMariaDbMeans() {
        JsonNode answer = session.answer("SELECT * FROM all_types ORDER BY row_id", CAPS);

        List<String> types = new ArrayList<>();
        answer.get("columns").forEach(column -> types.add(column.get("type").asText()));
        assertThat(types).containsExactlyElementsOf(prepend("int", TYPES));
        assertThat(answer.get("row_count").asInt()).isEqualTo(4);
        assertThat(answer.get("truncated").asBoolean()).isFalse();
        assertThat(answer.get("rows").get(3).get("row_id").asInt()).isEqualTo(4);
        List<List<JsonNode>> rows = session.rows("SELECT * FROM all_types ORDER BY row_id", CAPS);
        List<List<String>> texts = serverTexts();
        for (int r = 0; r < 4; r++) {
            List<JsonNode> row = rows.get(r);
            for (int i = 0; i < COLUMNS.size(); i++) {
                Column column = COLUMNS.get(i);
                JsonNode value = row.get(i + 1);
                String server = texts.get(r).get(i);
                String where = column.name() + " " + column.type() + " row " + (r + 1) + ": server says " + server;
                if (server == null) {
                    assertThat(value.isNull()).as(where + ", got " + value).isTrue();
                    continue;
                }
                assertValue(column.rule(), value, server, where);
            }
        }
    }

    private static void assertValue(Rule rule, JsonNode value, String server, String where) {
        switch (rule) {
            case DIGITS -> {
                assertThat(value.isNumber()).as(where + ", got " + value).isTrue();
                assertThat(value.asText()).as(where).isEqualTo(server);
            }
            case FLOAT -> {
                assertThat(value.isNumber()).as(where + ", got " + value).isTrue();
                assertThat(Float.parseFloat(value.asText())).as(where).isEqualTo(Float.parseFloat(server));
            }
            case DOUBLE -> {
                assertThat(value.isNumber()).as(where + ", got " + value).isTrue();
                assertThat(Double.parseDouble(value.asText())).as(where).isEqualTo(Double.parseDouble(server));
            }
            case ISO -> assertString(value, iso(server), where);
            case HEX -> assertString(value, "0x" + server, where);
            default -> assertString(value, server, where);
        }
    }

    private static void assertString(JsonNode value, String expected, String where) {
        assertThat(value.isTextual()).as(where + ", got " + value).isTrue();
        assertThat(value.textValue()).as(where).isEqualTo(expected);
    }

    /** The server's date-time or time text with {@code T} for the space and no trailing zeros in the fraction. */
    private static String iso(String server) {
        String text = server.replace(' ', 'T');
        if (text.indexOf('.') < 0) {
            return text;
        }
        text = text.replaceAll("0+$", "");
        return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    }

    @Test
    void decimalsKeepTheirScaleAndUnsignedBigintsAllTheirDigits() {
        JsonNode row = session.answer("SELECT dec_money, biu, dec_big FROM all_types WHERE row_id = 1", CAPS)
                .get("rows").get(0);

        assertThat(row.get("dec_money").decimalValue()).isEqualTo(new BigDecimal("270.00"));
        assertThat(row.get("dec_money").toString()).isEqualTo("270.00");
        assertThat(row.get("biu").toString()).isEqualTo("18446744073709551615");
        assertThat(row.get("dec_big").toString())
                .isEqualTo("12345678901234567890123456789012345.123456789012345678901234567890");
    }

    @Test
    void computedValuesAreTypedAndExactToo() {
        JsonNode answer = session.answer("SELECT 12.5 * 2 AS product, CAST(18446744073709551615 AS UNSIGNED) AS big, "
                + "b'101' AS raw_bits, 0.1e0 + 0.2e0 AS sum, CAST('2024-01-02 03:04:05' AS DATETIME(2)) AS at, "
                + "X'' AS nothing, JSON_OBJECT('a', 1.50) AS doc, NULL AS missing", CAPS);

        JsonNode row = answer.get("rows").get(0);
        assertThat(row.get("product").toString()).isEqualTo("25.0");
        assertThat(row.get("big").toString()).isEqualTo("18446744073709551615");
        assertThat(row.get("sum").toString()).isEqualTo("0.30000000000000004");
        assertThat(row.get("at").textValue()).isEqualTo("2024-01-02T03:04:05");
        assertThat(row.get("nothing").textValue()).isEqualTo("0x");
        assertThat(row.get("doc").textValue()).isEqualTo("{\"a\": 1.50}");
        assertThat(row.get("missing").isNull()).isTrue();
        // b'101' is a binary string literal, not a BIT column: its byte in hex.
        assertThat(row.get("raw_bits").textValue()).isEqualTo("0x05");
    }

    private static List<String> prepend(String first, List<String> rest) {
        List<String> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }
}
