package io.sqlagent.sql.engine.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.sqlagent.agent.ScriptedModel;
import io.sqlagent.bench.SchemaSearchBench;
import io.sqlagent.embedded.EmbeddedDatabase;
import io.sqlagent.sql.engine.SchemaReader;
import io.sqlagent.sql.engine.SchemaReader.Column;
import io.sqlagent.sql.engine.SchemaReader.ForeignKey;
import io.sqlagent.sql.engine.SchemaReader.Table;
import io.sqlagent.sql.schema.SchemaIntrospector;
import io.sqlagent.sql.source.Engines;
import io.sqlagent.sql.source.Source;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * PostgreSQL's schema through the engine contract ({@code Engine.schema()}), on a database of its own on the shared
 * embedded PostgreSQL with what Chinook lacks: another schema, a view, a materialized view, a partitioned table and its
 * partition, a key into its own table, a key over two columns, a table without columns, quoted names, comments and
 * defaults. What PostgreSQL reads per table (the listing, one table, the keys around it) agrees with what the contract
 * derives from the whole catalog, and the schema tools' shapes come out of it.
 */
@QuarkusTest
@ScriptedModel
class PgSchemaTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String DATABASE = "pg_schema_variants";

    @ConfigProperty(name = "sqlagent.sources.default.url")
    String defaultSourceUrl;

    @Inject
    Vertx vertx;

    @Inject
    SchemaIntrospector introspector;

    private Source source;
    private SchemaReader schema;

    @BeforeEach
    void createDatabase() throws Exception {
        String server = defaultSourceUrl.substring(0, defaultSourceUrl.lastIndexOf('/') + 1);
        Class.forName("org.postgresql.Driver");
        try (Connection admin = DriverManager.getConnection("jdbc:" + server + "postgres", EmbeddedDatabase.USER, "");
                Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + DATABASE);
        }
        try (Connection connection = DriverManager.getConnection("jdbc:" + server + DATABASE, EmbeddedDatabase.USER, "");
                Statement statement = connection.createStatement()) {
            statement.execute("""
                    CREATE TABLE parent (id int PRIMARY KEY, code text NOT NULL DEFAULT 'new');
                    COMMENT ON TABLE parent IS 'The parents';
                    COMMENT ON COLUMN parent.code IS 'Their code';
                    CREATE TABLE employee (id int PRIMARY KEY, manager_id int REFERENCES employee (id),
                        parent_id int REFERENCES parent (id));
                    CREATE TABLE pair (a int, b int, label varchar(20), PRIMARY KEY (a, b));
                    CREATE TABLE pair_use (id serial PRIMARY KEY, x int, y int, FOREIGN KEY (x, y) REFERENCES pair (a, b));
                    CREATE TABLE nothing ();
                    CREATE TABLE "Odd ""Name""\" ("Mixed Case" text, "quote""d" character(3));
                    CREATE VIEW parent_codes AS SELECT code FROM parent;
                    CREATE MATERIALIZED VIEW parent_count AS SELECT count(*) AS n FROM parent;
                    CREATE TABLE measure (at date NOT NULL, v numeric(10, 2)) PARTITION BY RANGE (at);
                    CREATE TABLE measure_2024 PARTITION OF measure FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
                    CREATE SCHEMA other;
                    CREATE TABLE other.thing (id int PRIMARY KEY, parent_id int REFERENCES parent (id),
                        pair_a int, pair_b int, FOREIGN KEY (pair_a, pair_b) REFERENCES pair (a, b));
                    INSERT INTO parent VALUES (1, 'a'), (2, 'b'), (3, 'a');
                    INSERT INTO "Odd ""Name""\" VALUES ('x', 'abc'), ('y', NULL);
                    """);
        }
        source = SchemaSearchBench.source(vertx, server + DATABASE);
        schema = Engines.POSTGRESQL.schema();
    }

    @AfterEach
    void close() {
        source.requirePool().closeAndAwait();
    }

    private Pool pool() {
        return source.requirePool();
    }

    /** The contract's defaults, each derived from {@code catalog} alone, as an engine that reads only that gives them. */
    private SchemaReader fromCatalogOnly() {
        return new SchemaReader() {
            @Override
            public Uni<List<Table>> catalog(io.vertx.mutiny.sqlclient.SqlClient pool) {
                return schema.catalog(pool);
            }

            @Override
            public String sampleStatement(Table table, List<String> columns, int rows) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String valueHintsStatement(Table table, List<String> columns, int sampleRows, int maxValues,
                    int maxLength) {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean hintable(String type) {
                throw new UnsupportedOperationException();
            }
        };
    }

    @Test
    void theListingTheTablesAndTheKeysAgreeWithTheWholeCatalog() {
        List<Table> catalog = schema.catalog(pool()).await().atMost(WAIT);
        SchemaReader derived = fromCatalogOnly();

        List<Table> listed = schema.tables(pool()).await().atMost(WAIT);
        assertThat(listed).extracting(Table::displayName).containsExactlyElementsOf(
                catalog.stream().map(Table::displayName).toList());
        for (Table table : listed) {
            assertThat(table.columns()).isEmpty();
            // The whole catalog leaves the defaults out (SchemaReader.catalog); one table has them.
            assertThat(withoutDefaults(schema.table(pool(), table).await().atMost(WAIT)))
                    .isEqualTo(derived.table(pool(), table).await().atMost(WAIT));
            assertThat(schema.keys(pool(), table).await().atMost(WAIT))
                    .isEqualTo(derived.keys(pool(), table).await().atMost(WAIT));
        }
    }

    private static Table withoutDefaults(Table table) {
        return new Table(table.schema(), table.name(), table.kind(), table.own(), table.description(),
                table.columns().stream().map(column -> new Column(column.name(), column.type(), column.nullable(),
                        column.primaryKey(), Optional.empty(), column.description())).toList(),
                table.foreignKeys());
    }

    @Test
    void theCatalogHasEveryKindPublicFirstAndNoPartition() {
        List<Table> catalog = schema.catalog(pool()).await().atMost(WAIT);

        assertThat(catalog).extracting(Table::displayName).containsExactly("Odd \"Name\"", "employee", "measure",
                "nothing", "pair", "pair_use", "parent", "parent_codes", "parent_count", "other.thing");
        assertThat(catalog).extracting(Table::kind).containsExactly("table", "table", "partitioned table", "table",
                "table", "table", "table", "view", "materialized view", "table");
        Table parent = find(catalog, "parent");
        assertThat(parent.description()).contains("The parents");
        assertThat(parent.own()).isTrue();
        assertThat(parent.columns()).containsExactly(
                new Column("id", "integer", false, true, Optional.empty(), Optional.empty()),
                new Column("code", "text", false, false, Optional.empty(), Optional.of("Their code")));
        assertThat(schema.table(pool(), parent).await().atMost(WAIT).columns()).containsExactly(
                new Column("id", "integer", false, true, Optional.empty(), Optional.empty()),
                new Column("code", "text", false, false, Optional.of("'new'::text"), Optional.of("Their code")));
        assertThat(find(catalog, "nothing").columns()).isEmpty();
        assertThat(find(catalog, "other.thing").own()).isFalse();
        // A key over two columns is listed by its first one; a key into its own table like any other.
        assertThat(find(catalog, "other.thing").foreignKeys()).containsExactly(
                new ForeignKey("pair_a", "public", "pair", "a"), new ForeignKey("parent_id", "public", "parent", "id"));
        assertThat(find(catalog, "employee").foreignKeys()).containsExactly(
                new ForeignKey("manager_id", "public", "employee", "id"),
                new ForeignKey("parent_id", "public", "parent", "id"));
        assertThat(schema.table(pool(), find(catalog, "pair_use")).await().atMost(WAIT).columns().get(0).defaultValue())
                .contains("nextval('pair_use_id_seq'::regclass)");
    }

    @Test
    void aKeyIntoItsOwnTableIsOneBelongsToAndKeysFromOtherSchemasAreHasMany() {
        List<SchemaIntrospector.Relation> relations = introspector.relations(source).await().atMost(WAIT);

        assertThat(introspector.relationships(source, SchemaIntrospector.find(relations, "employee").orElseThrow())
                .await().atMost(WAIT)).containsExactly(
                        Map.of("type", "belongsTo", "related_table", "employee", "foreign_key", "manager_id", "local_key",
                                "id"),
                        Map.of("type", "belongsTo", "related_table", "parent", "foreign_key", "parent_id", "local_key",
                                "id"));
        assertThat(introspector.relationships(source, SchemaIntrospector.find(relations, "parent").orElseThrow())
                .await().atMost(WAIT)).containsExactly(
                        Map.of("type", "hasMany", "related_table", "employee", "foreign_key", "parent_id", "local_key",
                                "id"),
                        Map.of("type", "hasMany", "related_table", "thing", "foreign_key", "parent_id", "local_key",
                                "id"));
        assertThat(introspector.catalog(source).await().atMost(WAIT).stream()
                .filter(table -> table.relation().displayName().equals("other.thing")).findFirst().orElseThrow()
                .references()).containsExactly("public.pair", "public.parent");
    }

    @Test
    void aTableWhoseWholePrimaryKeyReferencesAnotherExtendsItAndNoOtherKeyDoes() throws Exception {
        execute("""
                CREATE TABLE person (id int PRIMARY KEY, first_name text);
                CREATE TABLE worker (id int PRIMARY KEY REFERENCES person (id), hired date);
                CREATE TABLE rep (person_id int PRIMARY KEY REFERENCES worker (id), parent_id int REFERENCES parent (id));
                CREATE TABLE pay (worker_id int REFERENCES worker (id), paid date, PRIMARY KEY (worker_id, paid));
                CREATE TABLE pair_detail (x int, y int, note text, PRIMARY KEY (x, y), FOREIGN KEY (x, y) REFERENCES pair (a, b));
                CREATE TABLE keyless (id int REFERENCES person (id));
                """);

        Map<String, List<String>> extended = introspector.catalog(source).await().atMost(WAIT).stream().collect(
                Collectors.toMap(table -> table.relation().displayName(),
                        SchemaIntrospector.CatalogTable::extended));

        // A subtype's key is its supertype's, whatever the column is called.
        assertThat(extended).containsEntry("worker", List.of("public.person")).containsEntry("rep", List.of("public.worker"));
        // Part of a key (the worker's pay, one row per payment), a primary key over two columns, no primary key, a
        // key into its own table: none makes a subtype.
        assertThat(extended).containsEntry("pay", List.of()).containsEntry("pair_detail", List.of())
                .containsEntry("keyless", List.of()).containsEntry("employee", List.of())
                .containsEntry("other.thing", List.of()).containsEntry("person", List.of());
    }

    private void execute(String sql) throws Exception {
        String server = defaultSourceUrl.substring(0, defaultSourceUrl.lastIndexOf('/') + 1);
        try (Connection connection = DriverManager.getConnection("jdbc:" + server + DATABASE, EmbeddedDatabase.USER, "");
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Test
    void aTableThatIsGoneHasNoColumnsAndNoKeys() {
        Table gone = new Table("public", "gone", "table", true, Optional.empty(), List.of(), List.of());

        assertThat(schema.table(pool(), gone).await().atMost(WAIT).columns()).isEmpty();
        assertThat(schema.keys(pool(), gone).await().atMost(WAIT)).isEmpty();
    }

    @Test
    void samplesAndValueHintsQuoteTheCatalogsNames() {
        Table odd = find(schema.tables(pool()).await().atMost(WAIT), "Odd \"Name\"");
        String sample = schema.sampleStatement(odd, List.of("Mixed Case", "quote\"d"), 3);
        String hints = schema.valueHintsStatement(odd, List.of("Mixed Case", "quote\"d"), 100, 5, 2);

        assertThat(sample).isEqualTo("SELECT \"Mixed Case\", \"quote\"\"d\" FROM \"public\".\"Odd \"\"Name\"\"\" LIMIT 3");
        assertThat(rows(sample)).containsExactly("x, abc", "y, null");
        assertThat(rows(hints)).containsExactly("0, {x,y}", "1, {ab…}");
        assertThat(schema.hintable("character(3)")).isTrue();
        assertThat(schema.hintable("integer")).isFalse();
    }

    private List<String> rows(String sql) {
        return pool().query(sql).execute().await().atMost(WAIT).stream()
                .map(row -> row.getValue(0) + ", " + text(row.getValue(1))).toList();
    }

    private static String text(Object value) {
        if (value instanceof Object[]) {
            return "{" + String.join(",", Arrays.stream((Object[]) value).map(String::valueOf).toList()) + "}";
        }
        return String.valueOf(value);
    }

    private static Table find(List<Table> tables, String displayName) {
        return tables.stream().filter(table -> table.displayName().equals(displayName)).findFirst()
                .orElseThrow(() -> new AssertionError(displayName + " not in " + tables));
    }
}
