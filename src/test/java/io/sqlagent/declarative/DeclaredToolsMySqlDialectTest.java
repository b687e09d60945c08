package io.sqlagent.declarative;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.sql.engine.Engine;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.StatementKind;
import io.sqlagent.sql.source.Engines;
import io.sqlagent.yaml.YamlProblem;
import io.sqlagent.yaml.YamlTree;

/**
 * A tool file whose source is MySQL or MariaDB is read in MySQL's dialect, without a server: placeholders found by
 * MySQL's lexer, the statement checked by the engine's statement check as it loads, and arguments bound as {@code ?}
 * marks, one value per mark, never as text ({@code DeclaredToolsOnMariaDbTest} runs such tools on a real MariaDB).
 */
class DeclaredToolsMySqlDialectTest {

    private static final Map<String, Engine> ENGINES = Map.of("shop", Engines.MARIADB, "store", Engines.MYSQL, "default",
            Engines.POSTGRESQL);

    private static DeclarationReader.Result read(String yaml) {
        return DeclarationReader.read(List.of(YamlTree.parse("tools.yaml", yaml)), new DeclarationReader.Context(
                ENGINES.keySet(), Set.of("run_sql"), SqlGuard.defaults(), name -> null, StatementPolicy.NONE,
                ENGINES::get, EnumSet.of(StatementKind.SELECT, StatementKind.EXPLAIN)));
    }

    private static DeclaredTool tool(String yaml) {
        DeclarationReader.Result result = read(yaml);
        assertThat(result.problems()).isEmpty();
        return result.declarations().tools().get(0);
    }

    private static List<String> problems(String yaml) {
        return read(yaml).problems().stream().map(YamlProblem::toString).toList();
    }

    private static ObjectNode arguments(Map<String, Object> values) {
        return SnakeCaseJson.MAPPER.valueToTree(values);
    }

    @Test
    void placeholdersAreFoundAsMySqlReadsTheStatement() {
        DeclaredTool tool = tool("""
                tools:
                  t:
                    source: shop
                    description: d
                    statement: |
                      SELECT ':a' AS s1, "\\":a" AS s2, 'it\\'s :a' AS s3, `:a` AS q, :a AS bound, -- :a
                             :b + 1 AS b /* :a */ # :a
                      FROM gadget WHERE id IN (:ids) OR id = :b
                    parameters:
                      - { name: a, type: string, required: true }
                      - { name: b, type: integer, required: true }
                      - { name: ids, type: array, itemType: integer, required: true }
                """);

        assertThat(tool.statement().names()).containsExactly("a", "b", "ids");
        StatementBinder.Bound bound = StatementBinder.bind(tool,
                arguments(Map.of("a", "x' OR '1'='1", "b", 7, "ids", List.of(3, 1, 2))), Engines.MARIADB);

        assertThat(bound.sql()).isEqualTo("""
                SELECT ':a' AS s1, "\\":a" AS s2, 'it\\'s :a' AS s3, `:a` AS q, ? AS bound, -- :a
                       ? + 1 AS b /* :a */ # :a
                FROM gadget WHERE id IN (?, ?, ?) OR id = ?
                """);
        // One value per mark, in the order written: b twice.
        assertThat(bound.values().size()).isEqualTo(6);
        assertThat(List.of(bound.values().getValue(0), bound.values().getValue(1), bound.values().getValue(2),
                bound.values().getValue(3), bound.values().getValue(4), bound.values().getValue(5)))
                .containsExactly("x' OR '1'='1", 7L, 3L, 1L, 2L, 7L);
    }

    @Test
    void aLeftOutArgumentBindsAsNull() {
        DeclaredTool tool = tool("""
                tools:
                  t:
                    source: store
                    description: d
                    statement: SELECT id FROM gadget WHERE (:name IS NULL OR name = :name) AND id IN (:ids)
                    parameters:
                      - { name: name, type: string }
                      - { name: ids, type: array, itemType: integer }
                """);

        StatementBinder.Bound bound = StatementBinder.bind(tool, arguments(Map.of()), Engines.MYSQL);

        assertThat(bound.sql()).isEqualTo("SELECT id FROM gadget WHERE (? IS NULL OR name = ?) AND id IN (?)");
        assertThat(bound.values().size()).isEqualTo(3);
        assertThat(bound.values().getValue(0)).isNull();
        assertThat(bound.values().getValue(2)).isNull();
    }

    @Test
    void theEngineCheckRefusesWhatItRefusesForRunSql() {
        String template = """
                tools:
                  t:
                    source: shop
                    description: d
                    statement: "%s"
                    parameters:
                      - { name: p, type: string, required: true }
                """;
        Map<String, String> refused = Map.of(
                "SELECT LOAD_FILE(:p)", "reads a file on the database server",
                "SELECT SLEEP(:p)", "sleeps or burns the server's CPU",
                "SELECT user FROM mysql.user WHERE user = :p", "mysql",
                "SELECT name FROM gadget WHERE name = :p INTO OUTFILE '/tmp/x'", "writes a file on the server",
                "SELECT name FROM gadget WHERE name = :p; DELETE FROM gadget", "Only one statement",
                "SELECT /*! 1, */ name FROM gadget WHERE name = :p", "executable comments");
        refused.forEach((sql, reason) -> assertThat(problems(template.formatted(sql))).as(sql).singleElement()
                .asString().startsWith("tools.yaml:5: tools.t.statement: ").containsIgnoringCase(reason));
        // A PostgreSQL cast is no MySQL syntax: :p::int reads as two placeholders there, the second unknown.
        assertThat(problems(template.formatted("SELECT :p::int AS n"))).anyMatch(problem -> problem.contains(
                "the statement uses :int but no parameter is named 'int'"));
    }

    @Test
    void aToolThatChangesDataIsRefusedOnMySqlAndMariaDb() {
        for (String source : List.of("shop", "store")) {
            assertThat(problems("""
                    tools:
                      t:
                        source: %s
                        description: d
                        statement: UPDATE gadget SET price = 0 WHERE id = :id
                        parameters:
                          - { name: id, type: integer, required: true }
                        security: { readOnly: false }
                    """.formatted(source))).singleElement().asString()
                    .contains("tools.t.security.readOnly: statements that change data run on PostgreSQL sources only",
                            Engines.displayName(ENGINES.get(source)));
        }
    }

    @Test
    void aPostgresToolKeepsItsNumberedTypedParameters() {
        DeclaredTool tool = tool("""
                tools:
                  t:
                    source: default
                    description: d
                    statement: SELECT :a::int + :a AS n, '#' AS hash -- :a
                    parameters:
                      - { name: a, type: integer, required: true }
                """);

        StatementBinder.Bound bound = StatementBinder.bind(tool, arguments(Map.of("a", 2)), Engines.POSTGRESQL);

        assertThat(bound.sql()).isEqualTo("SELECT $1::bigint::int + $1::bigint AS n, '#' AS hash -- :a");
        assertThat(bound.values().size()).isEqualTo(1);
    }

    @Test
    void aDeclaredSourceTakesTheEngineItsUrlNames() {
        DeclarationReader.Result result = read("""
                sources:
                  maria:
                    url: mariadb://agent:pw@db:3306/shop
                tools:
                  t:
                    source: maria
                    description: d
                    statement: "SELECT `name` FROM gadget WHERE note = 'it\\\\'s' AND id = :id # :id"
                    parameters:
                      - { name: id, type: integer, required: true }
                """);

        assertThat(result.problems()).isEmpty();
        assertThat(StatementBinder.bind(result.declarations().tools().get(0), arguments(Map.of("id", 1)),
                Engines.MARIADB).sql()).isEqualTo("SELECT `name` FROM gadget WHERE note = 'it\\'s' AND id = ? # :id");
    }
}
