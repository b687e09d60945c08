package io.sqlagent.builtin;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;

/**
 * Every built-in PostgreSQL type comes back from {@code run_sql} (over REST, as a client reads it)
 * as PostgreSQL means it: a table with one column of each type, a row of values, a row of edge
 * values and a row of NULLs, compared value by value with PostgreSQL's own text output
 * ({@code col::text}, what psql prints), by the documented rules: numbers are JSON numbers with
 * exactly PostgreSQL's digits, booleans are booleans, json/jsonb, arrays and composite values are
 * JSON, dates and times are ISO 8601 ({@code T} between date and time, the offset as
 * {@code +HH:MM}), everything else is a string equal to the text output.
 */
@QuarkusTest
@ScriptedModel
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResultFidelityTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Column name, type and three values (SQL literals), in table order; a fourth row is all NULL. */
    private static final List<String[]> COLUMNS = List.of(
            c("num", "numeric", "270", "'NaN'", "'-Infinity'"),
            c("num_scaled", "numeric(12,4)", "12.5000", "0", "-99999999.9999"),
            c("num_big", "numeric", "123456789012345678901234567890.123456789012345678901234567890", "0.000000001", "1e-20"),
            c("i2", "smallint", "32767", "-1", "0"),
            c("i4", "integer", "-2147483648", "0", "7"),
            c("i8", "bigint", "9223372036854775807", "-9223372036854775808", "0"),
            c("f4", "real", "1.5", "'NaN'", "'-Infinity'"),
            c("f8", "double precision", "0.1", "'Infinity'", "1e+300"),
            c("cash", "money", "1234.56", "-0.99", "0"),
            c("yes", "boolean", "true", "false", "NULL"),
            c("fixed", "character(5)", "'ab'", "''", "NULL"),
            c("varying", "character varying(20)", "'with space'", "''", "NULL"),
            c("txt", "text", "E'line\\nbreak \"quoted\" \\\\ backslash'", "''", "'NULL'"),
            c("single", "\"char\"", "'x'", "''", "NULL"),
            c("nm", "name", "'pg_name'", "''", "NULL"),
            c("bin", "bytea", "'\\x000102ff'", "'\\x'", "NULL"),
            c("bits", "bit(8)", "B'10101010'", "B'00000000'", "NULL"),
            c("varbits", "bit varying", "B'101'", "B''", "NULL"),
            c("day", "date", "'2024-02-29'", "'infinity'", "'0044-03-15 BC'"),
            c("clock", "time without time zone", "'04:05:06.789'", "'24:00:00'", "'00:00:00.000001'"),
            c("clock_tz", "time with time zone", "'04:05:06+02'", "'00:00:00-07:30'", "NULL"),
            c("ts", "timestamp without time zone", "'2024-01-02 03:04:05.123456'", "'-infinity'", "'0099-12-31 23:59:59 BC'"),
            c("tstz", "timestamp with time zone", "'2024-01-02 03:04:05+00'", "'infinity'", "'1999-12-31 23:00:00-05:30'"),
            c("span", "interval", "'5 years 16 days 03:04:05.5'", "'-1 years -2 mons +3 days -04:05:06'", "'00:00:00'"),
            c("addr", "inet", "'192.168.0.1/24'", "'2001:db8::1'", "'10.1.2.3'"),
            c("net", "cidr", "'10.0.0.0/8'", "'::ffff:1.2.3.4/128'", "NULL"),
            c("mac", "macaddr", "'08:00:2b:01:02:03'", "'00:00:00:00:00:00'", "NULL"),
            c("mac8", "macaddr8", "'08:00:2b:01:02:03:04:05'", "'00:00:00:ff:fe:00:00:00'", "NULL"),
            c("id", "uuid", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", "'00000000-0000-0000-0000-000000000000'", "NULL"),
            c("doc", "json", "'{\"b\": [1, 2.50, null], \"a\": \"x\"}'", "'[]'", "'null'"),
            c("docb", "jsonb", "'{\"b\": [1, 2.50], \"a\": {\"c\": true}}'", "'{}'", "'\"text\"'"),
            c("markup", "xml", "'<p>text &amp; more</p>'", "''", "NULL"),
            c("ints", "int4range", "'[1,10)'", "'empty'", "NULL"),
            c("nums", "numrange", "'[1.5,2.25]'", "'(,)'", "NULL"),
            c("days", "daterange", "'[2024-01-01,2024-02-01)'", "'(,2024-01-01]'", "NULL"),
            c("times", "tstzrange", "'[2024-01-01 00:00:00+00,2024-01-02 00:00:00+00)'", "'(,)'", "NULL"),
            c("multi", "int4multirange", "'{[1,3), [5,8)}'", "'{}'", "NULL"),
            c("pt", "point", "'(1.5,-2)'", "'(0,0)'", "NULL"),
            c("ln", "line", "'{1,-1,0}'", "'{0,1,0}'", "NULL"),
            c("seg", "lseg", "'[(0,0),(1,1)]'", "'[(0,0),(0,0)]'", "NULL"),
            c("bx", "box", "'(2,2),(0,0)'", "'(0,0),(0,0)'", "NULL"),
            c("pth", "path", "'[(0,0),(1,1),(2,0)]'", "'((0,0),(1,1))'", "NULL"),
            c("poly", "polygon", "'((0,0),(1,1),(1,0))'", "'((0,0))'", "NULL"),
            c("circ", "circle", "'<(0,0),1.5>'", "'<(0,0),0>'", "NULL"),
            c("vec", "tsvector", "'a fat cat sat'", "''", "NULL"),
            c("query", "tsquery", "'fat & (rat | cat)'", "'cat'", "NULL"),
            c("feeling", "fidelity.mood", "'happy'", "'sad'", "NULL"),
            c("couple", "fidelity.pair", "ROW(1, 'one, two')", "ROW(NULL, '')", "NULL"),
            c("positive", "fidelity.positive_int", "42", "1", "NULL"),
            c("int_array", "integer[]", "'{1,2,NULL,4}'", "'{}'", "NULL"),
            c("text_grid", "text[]", "'{{a,\"b c\"},{\"\",NULL}}'", "'{}'", "NULL"),
            c("num_array", "numeric[]", "'{1.10,NaN,-0.5}'", "'{}'", "NULL"),
            c("span_array", "interval[]", "'{\"1 day\",\"-01:00:00\"}'", "'{}'", "NULL"),
            c("addr_array", "inet[]", "'{::1,2001:db8::ff00:42:8329}'", "'{}'", "NULL"),
            c("lsn", "pg_lsn", "'16/B374D848'", "'0/0'", "NULL"),
            c("object_id", "oid", "4294967295", "0", "NULL"),
            c("path_expr", "jsonpath", "'$.a[*] ? (@ > 1)'", "'$'", "NULL"));

    @Inject
    SourceRegistry sources;

    private static String[] c(String name, String type, String first, String second, String third) {
        return new String[] { name, type, first, second, third };
    }

    private Pool pool() {
        return sources.find("default").orElseThrow().requirePool();
    }

    @BeforeAll
    void createTheTable() {
        StringBuilder table = new StringBuilder("CREATE TABLE fidelity.all_types (row_id int PRIMARY KEY");
        COLUMNS.forEach(column -> table.append(", ").append(column[0]).append(' ').append(column[1]));
        table.append(')');
        for (String statement : List.of("DROP SCHEMA IF EXISTS fidelity CASCADE", "CREATE SCHEMA fidelity",
                "CREATE TYPE fidelity.mood AS ENUM ('sad', 'happy')", "CREATE TYPE fidelity.pair AS (a int, b text)",
                "CREATE DOMAIN fidelity.positive_int AS int CHECK (VALUE > 0)", table.toString(),
                "INSERT INTO fidelity.all_types VALUES " + rows())) {
            sources.find("default").orElseThrow().executeWriting(statement).await().atMost(WAIT);
        }
    }

    private static String rows() {
        StringBuilder rows = new StringBuilder();
        for (int r = 1; r <= 4; r++) {
            rows.append(r > 1 ? ", (" : "(").append(r);
            for (String[] column : COLUMNS) {
                rows.append(", ").append(r == 4 ? "NULL" : column[1 + r]);
            }
            rows.append(')');
        }
        return rows.toString();
    }

    @AfterAll
    void dropTheTable() {
        sources.find("default").orElseThrow().executeWriting("DROP SCHEMA IF EXISTS fidelity CASCADE").await().atMost(WAIT);
    }

    /** Reads numbers as a careful client does: every digit and the scale kept. */
    private static final ObjectMapper EXACT = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private static JsonNode runSql(String sql) throws Exception {
        String body = given().contentType(ContentType.JSON)
                .body(SnakeCaseJson.MAPPER.createObjectNode().put("sql", sql).toString())
                .when().post("/api/tools/run_sql").then().statusCode(200).extract().asString();
        return EXACT.readTree(body).get("result");
    }

    /**
     * Run twice: the first run of a statement has PostgreSQL write each row as JSON, a later one each column by its
     * type (QueryRunner); both must give every value as PostgreSQL means it, and the same answer.
     */
    @Test
    void everyValueIsWhatPostgresPrints() throws Exception {
        String sql = "SELECT * FROM fidelity.all_types ORDER BY row_id";
        JsonNode first = runSql(sql);
        JsonNode again = runSql(sql);
        assertEveryValueIsWhatPostgresPrints(first);
        assertEveryValueIsWhatPostgresPrints(again);
        assertEquals(first, again);
    }

    /**
     * A statement run again after its table changed (a column's type, a column dropped, a column added) is read as
     * the table is now: no error, every value right.
     */
    @Test
    void aStatementRunAgainAfterItsTableChangedIsReadAsTheTableIsNow() throws Exception {
        Source source = sources.find("default").orElseThrow();
        source.executeWriting("CREATE TABLE fidelity.changing (id int, label text)").await().atMost(WAIT);
        source.executeWriting("INSERT INTO fidelity.changing VALUES (1, 'one'), (2, 'two')").await().atMost(WAIT);
        String sql = "SELECT * FROM fidelity.changing ORDER BY id";
        String rows = "[{\"id\":1,\"label\":\"one\"},{\"id\":2,\"label\":\"two\"}]";
        assertEquals(rows, runSql(sql).get("rows").toString());
        assertEquals(rows, runSql(sql).get("rows").toString());

        // text to integer[]: the statement for the old columns still runs, its text must not be taken as the new type's
        source.executeWriting("ALTER TABLE fidelity.changing ALTER COLUMN label TYPE int[] USING ARRAY[length(label)]")
                .await().atMost(WAIT);
        assertEquals("[{\"id\":1,\"label\":[3]},{\"id\":2,\"label\":[3]}]", runSql(sql).get("rows").toString());
        runSql(sql);

        // a column fewer: the statement for the old columns fails in PostgreSQL
        source.executeWriting("ALTER TABLE fidelity.changing DROP COLUMN label").await().atMost(WAIT);
        assertEquals("[{\"id\":1},{\"id\":2}]", runSql(sql).get("rows").toString());
        runSql(sql);

        // a column more, a timestamp
        source.executeWriting("ALTER TABLE fidelity.changing ADD COLUMN at timestamp DEFAULT '2024-01-02 03:04:05'")
                .await().atMost(WAIT);
        JsonNode result = runSql(sql);
        assertEquals("[{\"id\":1,\"at\":\"2024-01-02T03:04:05\"},{\"id\":2,\"at\":\"2024-01-02T03:04:05\"}]",
                result.get("rows").toString());
        assertEquals("timestamp without time zone", result.get("columns").get(1).get("type").asText());
        assertEquals(result, runSql(sql));
    }

    private void assertEveryValueIsWhatPostgresPrints(JsonNode result) throws Exception {
        List<List<String>> texts = postgresText();

        JsonNode columns = result.get("columns");
        assertEquals(COLUMNS.size() + 1, columns.size());
        assertEquals(4, result.get("rows").size());
        List<String> mismatches = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            JsonNode row = result.get("rows").get(r);
            for (int i = 0; i < COLUMNS.size(); i++) {
                String name = COLUMNS.get(i)[0];
                String expected = texts.get(r).get(i);
                JsonNode actual = row.get(name);
                String type = columns.get(i + 1).get("type").asText();
                String problem = compare(type, actual, expected);
                if (problem != null) {
                    mismatches.add("row " + (r + 1) + " " + name + " (" + type + "): " + problem);
                }
            }
        }
        assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
    }

    @Test
    void theColumnsNameEveryTypeAsPostgresDoes() throws Exception {
        JsonNode columns = runSql("SELECT * FROM fidelity.all_types LIMIT 0").get("columns");
        Iterator<JsonNode> reported = columns.iterator();
        assertEquals("row_id", reported.next().get("name").asText());
        for (String[] column : COLUMNS) {
            JsonNode next = reported.next();
            assertEquals(column[0], next.get("name").asText());
            assertEquals(column[0], next.get("key").asText());
            // A domain is described by its base type.
            String expected = column[1].replaceAll("\\(.*\\)", "").replace("fidelity.", "").replace("positive_int", "integer");
            assertEquals(expected, next.get("type").asText().replace("fidelity.", ""), column[0]);
        }
    }

    @Test
    void numbersKeepEveryDigitAndNeverTakeAnExponent() throws Exception {
        String body = given().contentType(ContentType.JSON)
                .body("{\"sql\":\"SELECT 270::numeric AS a, 100::numeric AS b, 270.00::numeric(6,2) AS c, 0.0000001::numeric AS d, "
                        + "123456789012345678901234567890.000000000000000000001 AS e, sum(x) AS f FROM (VALUES (1.10), (2.20)) v(x)\"}")
                .when().post("/api/tools/run_sql").then().statusCode(200).extract().asString();

        assertTrue(body.contains("\"rows\":[{\"a\":270,\"b\":100,\"c\":270.00,\"d\":0.0000001,"
                + "\"e\":123456789012345678901234567890.000000000000000000001,\"f\":3.30}]"), body);
    }

    @Test
    void aNumberLongerThanAJsonReadersDefaultLimitKeepsEveryDigit() {
        // Jackson refuses numbers over 1,000 digits by default; PostgreSQL's numeric has up to 131,072 before the
        // point. Each statement is new to the service (its shape not known yet), run twice (then it is).
        for (int digits : new int[] { 1001, 5000, 131072 }) {
            String sql = "SELECT repeat('9', " + digits + ")::numeric AS n, 'x" + digits + "' AS tag";
            for (int run = 1; run <= 2; run++) {
                String body = given().contentType(ContentType.JSON)
                        .body(SnakeCaseJson.MAPPER.createObjectNode().put("sql", sql).toString())
                        .when().post("/api/tools/run_sql").then().extract().asString();

                assertThat(body).as("%d digits, run %d", digits, run)
                        .contains("\"rows\":[{\"n\":" + "9".repeat(digits) + ",\"tag\":\"x" + digits + "\"}]");
            }
        }
    }

    /** The text output of every column of every row, through a plain connection (text is decoded exactly). */
    private List<List<String>> postgresText() {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < COLUMNS.size(); i++) {
            // format('%s') calls the type's output function, as psql shows it (a cast to text would trim character(n)).
            String name = COLUMNS.get(i)[0];
            select.append(i > 0 ? ", " : "").append("CASE WHEN ").append(name).append(" IS NULL THEN NULL ELSE format('%s', ")
                    .append(name).append(") END");
        }
        select.append(" FROM fidelity.all_types ORDER BY row_id");
        List<List<String>> rows = new ArrayList<>();
        for (Row row : pool().query(select.toString()).execute().await().atMost(WAIT)) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < COLUMNS.size(); i++) {
                values.add(row.getString(i));
            }
            rows.add(values);
        }
        return rows;
    }

    /** Null when {@code actual} is {@code expected} under the documented rules; else what differs. */
    private static String compare(String type, JsonNode actual, String expected) throws Exception {
        if (expected == null) {
            return actual != null && actual.isNull() ? null : "expected null, got " + actual;
        }
        if (actual == null) {
            return "missing";
        }
        String rendered;
        if (actual.isNumber()) {
            if (!numericType(type)) {
                return "a number for a non-numeric type: " + actual;
            }
            // Exact types: the same digits and scale; floating point: the same value (JSON spells exponents its own way).
            boolean floating = type.equals("real") || type.equals("double precision");
            boolean same = floating ? Double.parseDouble(expected) == actual.doubleValue()
                    : actual.decimalValue().toPlainString().equals(expected)
                            || (actual.isIntegralNumber() && actual.bigIntegerValue().toString().equals(expected));
            return same ? null : actual + " is not " + expected;
        } else if (actual.isBoolean()) {
            rendered = actual.booleanValue() ? "t" : "f";
        } else if (type.equals("json") || type.equals("jsonb")) {
            return SnakeCaseJson.MAPPER.readTree(expected).equals(actual) || sameJson(expected, actual) ? null
                    : "JSON " + actual + " is not " + expected;
        } else if (actual.isArray()) {
            rendered = arrayText(actual, type);
        } else if (actual.isObject()) {
            rendered = recordText(actual);
        } else if (actual.isTextual()) {
            rendered = temporalType(type) ? fromIso(actual.textValue(), type) : actual.textValue();
            if (numericType(type) && !List.of("NaN", "Infinity", "-Infinity").contains(rendered)) {
                return "a string for a number: " + actual;
            }
        } else {
            return "unexpected JSON " + actual;
        }
        return rendered.equals(expected) ? null : "'" + rendered + "' is not '" + expected + "' (JSON " + actual + ")";
    }

    private static boolean sameJson(String expected, JsonNode actual) throws Exception {
        return SnakeCaseJson.MAPPER.readTree(expected).toString()
                .equals(SnakeCaseJson.MAPPER.readTree(actual.toString()).toString());
    }

    private static boolean numericType(String type) {
        return List.of("numeric", "smallint", "integer", "bigint", "real", "double precision", "positive_int",
                "fidelity.positive_int").contains(type);
    }

    private static boolean temporalType(String type) {
        return type.startsWith("date") || type.startsWith("time");
    }

    /** ISO 8601 back to PostgreSQL's default style: a space for the {@code T}, {@code +HH} for {@code +HH:00}, BC years. */
    private static String fromIso(String iso, String type) {
        if (iso.equals("infinity") || iso.equals("-infinity")) {
            return iso;
        }
        String text = iso;
        boolean bc = text.startsWith("-");
        if (bc) {
            text = text.substring(1);
        }
        text = text.replace('T', ' ');
        if (type.contains("with time zone")) {
            text = text.replaceAll("([+-]\\d\\d):00$", "$1");
        }
        if (bc) {
            text = text + " BC";
        }
        return text;
    }

    /** A JSON array written as PostgreSQL writes an array: {@code {1,"b c",NULL}}, nested for more dimensions. */
    private static String arrayText(JsonNode array, String type) {
        StringBuilder out = new StringBuilder("{");
        for (int i = 0; i < array.size(); i++) {
            JsonNode item = array.get(i);
            out.append(i > 0 ? "," : "");
            if (item.isArray()) {
                out.append(arrayText(item, type));
            } else if (item.isNull()) {
                out.append("NULL");
            } else if (item.isNumber()) {
                out.append(item.isIntegralNumber() ? item.bigIntegerValue().toString() : item.decimalValue().toPlainString());
            } else {
                out.append(quoted(item.asText(), "{},\"\\ ", true));
            }
        }
        return out.append('}').toString();
    }

    /** A JSON object (a composite value) written as PostgreSQL writes a record: {@code (1,"one, two")}. */
    private static String recordText(JsonNode record) {
        StringBuilder out = new StringBuilder("(");
        Iterator<Map.Entry<String, JsonNode>> fields = record.fields();
        boolean first = true;
        while (fields.hasNext()) {
            JsonNode value = fields.next().getValue();
            out.append(first ? "" : ",");
            first = false;
            if (!value.isNull()) {
                out.append(value.isNumber() ? value.asText() : quoted(value.asText(), "(),\"\\ ", false));
            }
        }
        return out.append(')').toString();
    }

    private static String quoted(String text, String special, boolean nullWord) {
        boolean quote = text.isEmpty() || (nullWord && text.equalsIgnoreCase("NULL"));
        for (char ch : text.toCharArray()) {
            quote |= special.indexOf(ch) >= 0 || Character.isWhitespace(ch);
        }
        if (!quote) {
            return text;
        }
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    @Test
    void aResultIsNotTruncatedByTheFidelityRows() throws Exception {
        assertFalse(runSql("SELECT * FROM fidelity.all_types").get("truncated").asBoolean());
    }
}
