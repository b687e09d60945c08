package io.sqlagent.declarative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.yaml.YamlProblem;

/** The format and every validation rule, with fixture files under src/test/resources/declarative. */
class DeclarationReaderTest {

    private static final String DIR = "src/test/resources/declarative/";
    private static final Map<String, String> ENVIRONMENT = Map.of("SQLAGENT_TEST_SECRET", "s3cret", "SQLAGENT_TEST_PGPORT",
            "6544");

    private static DeclarationReader.Result read(String... files) {
        List<String> paths = Stream.of(files).map(file -> DIR + file).toList();
        return DeclarationReader.read(ToolFiles.read(paths), new DeclarationReader.Context(Set.of("default"),
                Set.of("run_sql", "introspect_schema"), SqlGuard.defaults(), ENVIRONMENT::get));
    }

    private static List<String> problems(String... files) {
        DeclarationReader.Result result = read(files);
        assertFalse(result.ok(), "expected problems");
        return result.problems().stream().map(YamlProblem::toString).toList();
    }

    @Test
    void readsEveryFieldOfTheFormat() {
        DeclarationReader.Result result = read("good/all-fields.yaml");

        assertEquals(List.of(), result.problems());
        Declarations declarations = result.declarations();
        DeclaredSource warehouse = declarations.sources().get(0);
        assertEquals("postgresql://db.example.com:6544/shop", warehouse.url());
        assertEquals("reader", warehouse.user().orElseThrow());
        assertEquals("s3cret", warehouse.password().orElseThrow());
        assertEquals(3, warehouse.maxPoolSize());
        assertEquals("postgresql://localhost:5432/other", declarations.sources().get(1).url());

        assertEquals(1, declarations.tools().size(), "the disabled tool is left out");
        DeclaredTool tool = declarations.tools().get(0);
        assertEquals("find_orders", tool.name());
        assertEquals("warehouse", tool.source());
        assertTrue(tool.markdown());
        assertEquals(20, tool.maxDisplayRows().orElseThrow());
        assertEquals(50, tool.rowsToFetch().orElseThrow());
        assertTrue(tool.fetchAllRows());
        assertEquals(List.of("customer", "statuses", "min_total", "rush", "limit"), List.copyOf(tool.statement().names()));
        assertEquals(List.of("customer", "statuses", "min_total", "rush", "limit"),
                tool.parameters().stream().map(DeclaredParameter::name).toList());
        DeclaredParameter statuses = tool.parameters().get(1);
        assertEquals(ParameterType.ARRAY, statuses.type());
        assertEquals(ParameterType.STRING, statuses.valueType());
        assertEquals("[\"open\"]", statuses.defaultValue().orElseThrow().toString());
        DeclaredParameter minTotal = tool.parameters().get(2);
        assertTrue(minTotal.nullable());
        assertEquals(0, minTotal.minimum().orElseThrow().intValue(), "min is an alias of minimum");
        assertEquals(1_000_000, minTotal.maximum().orElseThrow().intValue(), "max is an alias of maximum");
        DeclaredToolSecurity security = tool.security();
        assertTrue(security.readOnly());
        assertEquals(2000, security.maxQueryLength());
        assertEquals(List.of("PG_SLEEP", "DBLINK"), security.forbiddenKeywords());
        assertTrue(security.audit());
        assertEquals(List.of("orders:read"), security.scopes());
        assertEquals("ORDERS", security.requiredAuthority().orElseThrow());
        assertEquals("Shows customer data.", security.warning().orElseThrow());
        assertEquals("Find orders", tool.metadata().get("title"));
        assertEquals("2024-01-15", tool.metadata().get("lastUpdated"));
        assertEquals(List.of("orders", "customers"), tool.metadata().get("keywords"));
        assertEquals("production", tool.metadata().get("environment"));

        assertEquals(1, declarations.toolsets().size());
        assertEquals("Orders", declarations.toolsets().get(0).title());
        assertEquals(List.of("find_orders", "run_sql"), declarations.toolsets().get(0).tools());
        assertEquals(DeclarativeTools.GROUP, declarations.toolsets().get(0).group());
    }

    @Test
    void theDescriptorCarriesTheParametersSchema() {
        DeclaredTool tool = read("good/all-fields.yaml").declarations().tools().get(0);

        var schema = DeclaredSqlTool.describe(tool).parameters();

        assertEquals("[\"customer\"]", schema.get("required").toString());
        assertEquals(
                "{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"open\",\"closed\"]},\"minItems\":1,\"maxItems\":2,"
                        + "\"default\":[\"open\"]}",
                schema.at("/properties/statuses").toString());
        assertEquals(
                "{\"type\":\"string\",\"description\":\"The customer's code\",\"pattern\":\"^[A-Z]{3}[0-9]+$\",\"minLength\":4,"
                        + "\"maxLength\":12}",
                schema.at("/properties/customer").toString());
        assertFalse(schema.get("additionalProperties").booleanValue());
    }

    @Test
    void aSyntaxErrorNamesItsLine() {
        List<String> problems = problems("bad/syntax.yaml");

        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith(DIR + "bad/syntax.yaml:"), problems.get(0));
        assertTrue(problems.get(0).contains(": (file): not valid YAML: "), problems.get(0));
    }

    @Test
    void schemaViolationsNameFileLineAndField() {
        assertEquals(List.of(
                DIR + "bad/schema.yaml:2: tools.typo_tool.statement: is required",
                DIR + "bad/schema.yaml:5: tools.typo_tool.sttement: is not a known field; known fields: source, description,"
                        + " statement, enabled, responseFormat, maxDisplayRows, rowsToFetch, fetchAllRows, parameters, security, metadata",
                DIR + "bad/schema.yaml:10: tools.wrong_types.responseFormat: must be one of: json, markdown (got \"html\")",
                DIR + "bad/schema.yaml:11: tools.wrong_types.rowsToFetch: must be at least 1 (got 0)",
                DIR + "bad/schema.yaml:14: tools.wrong_types.parameters[0].type: must be one of: string, integer, float, boolean, array (got \"text\")",
                DIR + "bad/schema.yaml:17: toolsets.empty.tools: must have at least 1 item (got 0)",
                DIR + "bad/schema.yaml:18: unknown_section: is not a known field; known fields: sources, tools, toolsets"),
                problems("bad/schema.yaml"));
    }

    @Test
    void anUnknownSourceIsNamed() {
        assertEquals(List.of(
                DIR + "bad/unknown-source.yaml:3: tools.lost_tool.source: unknown source 'nowhere'; known sources: default"),
                problems("bad/unknown-source.yaml"));
    }

    @Test
    void duplicateToolsAreFoundInOneFileAcrossFilesAndAgainstBuiltIns() {
        assertEquals(List.of(
                DIR + "bad/duplicate-a.yaml:14: tools.twice_here: 'twice_here' is given twice (first on line 10); names must be unique",
                DIR + "bad/duplicate-a.yaml:6: tools.run_sql: a built-in tool is already named 'run_sql'; choose another name",
                DIR + "bad/duplicate-b.yaml:2: tools.shared_name: tool 'shared_name' is already declared at " + DIR
                        + "bad/duplicate-a.yaml:2; tool names must be unique across all files"),
                problems("bad/duplicate-a.yaml", "bad/duplicate-b.yaml"));
    }

    @Test
    void placeholdersAndParametersMustMatch() {
        assertEquals(List.of(
                DIR + "bad/parameters.yaml:5: tools.missing_parameter.statement: the statement uses :album but no parameter is named 'album'",
                DIR + "bad/parameters.yaml:14: tools.unused_parameter.parameters[0].name: parameter 'ghost' is never used in the"
                        + " statement (write :ghost where it goes)"),
                problems("bad/parameters.yaml"));
    }

    @Test
    void aReadOnlyToolNeedsOneReadOnlyQuery() {
        List<String> problems = problems("bad/not-read-only.yaml");

        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0)
                .startsWith(DIR + "bad/not-read-only.yaml:5: tools.deletes.statement: a readOnly tool needs a single"
                        + " read-only query: "),
                problems.get(0));
        assertTrue(problems.get(1)
                .startsWith(DIR + "bad/not-read-only.yaml:13: tools.stacked.statement: a readOnly tool needs a single"
                        + " read-only query: Only one statement is allowed; found 2"),
                problems.get(1));
    }

    @Test
    void parameterOptionsAreChecked() {
        assertEquals(List.of(
                DIR + "bad/values.yaml:9: tools.bad_values.parameters[0].pattern: is not a valid regular expression: Unclosed character"
                        + " class near index 8",
                DIR + "bad/values.yaml:14: tools.bad_values.parameters[1].default: the default 50 breaks the parameter's own constraints:"
                        + " must be at most 10 (got 50)",
                DIR + "bad/values.yaml:18: tools.bad_values.parameters[2].default: the default \"lower\" breaks the parameter's own"
                        + " constraints: must match the pattern ^[A-Z]+$",
                DIR + "bad/values.yaml:20: tools.bad_values.parameters[3].type: an array needs an itemType (string, integer, float or"
                        + " boolean)",
                DIR + "bad/values.yaml:23: tools.bad_values.parameters[4].minimum: minimum and maximum apply to integer and float values only",
                DIR + "bad/values.yaml:26: tools.bad_values.parameters[5].min: min is an alias of minimum; give only one",
                DIR + "bad/values.yaml:28: tools.bad_values.parameters[6]: \"minimum\" 10 is greater than \"maximum\" 1"),
                problems("bad/values.yaml"));
    }

    @Test
    void enumValuesMustHaveTheParametersTypeAndOnlyArraysHaveAnItemType() {
        assertEquals(List.of(
                DIR + "bad/enum.yaml:9: tools.bad_enum.parameters[0].enum: value \"two\" is not an integer",
                DIR + "bad/enum.yaml:12: tools.bad_enum.parameters[1].itemType: only an array has an itemType"),
                problems("bad/enum.yaml"));
    }

    @Test
    void toolNamesAndToolsetsAreChecked() {
        assertEquals(List.of(
                DIR + "bad/toolsets-and-names.yaml:2: tools.GoodIdea: tool name 'GoodIdea' must be lowercase letters, digits and"
                        + " underscores, starting with a letter (at most 64)",
                DIR + "bad/toolsets-and-names.yaml:12: toolsets.mixed.tools[1]: toolset 'mixed' names an unknown tool 'no_such_tool'"),
                problems("bad/toolsets-and-names.yaml"));
    }

    @Test
    void forbiddenKeywordsAreTokensNeverLiteralsAndTheLengthIsLimited() {
        assertEquals(List.of(
                DIR + "bad/security.yaml:5: tools.sleeps.statement: the statement contains the forbidden keyword RANDOM"
                        + " (security.forbiddenKeywords)",
                DIR + "bad/security.yaml:11: tools.too_long.statement: the statement has 17 characters; security.maxQueryLength allows 10"),
                problems("bad/security.yaml"));
    }

    @Test
    void sourcesAreChecked() {
        assertEquals(List.of(
                DIR + "bad/sources.yaml:2: sources.default: a source named 'default' is already configured (sqlagent.sources.default);"
                        + " use it without declaring it, or choose another name",
                DIR + "bad/sources.yaml:5: sources.no_env.url: environment variable SQLAGENT_TEST_UNSET_HOST is not set and has no"
                        + " default (write ${SQLAGENT_TEST_UNSET_HOST:default})",
                DIR + "bad/sources.yaml:6: sources.both: give either url or host/port/database, not both",
                DIR + "bad/sources.yaml:11: sources.bad_port.port: must be a port number (got 'lots')"),
                problems("bad/sources.yaml"));
    }

    @Test
    void aMissingPathIsAProblem() {
        assertEquals(List.of(DIR + "nope.yaml:0: (file): does not exist (sqlagent.tools.paths)"), problems("nope.yaml"));
    }

    @Test
    void aDirectoryReadsAllItsYamlFilesTogether() {
        List<String> problems = problems("bad");

        assertTrue(problems.size() > 20, problems.toString());
        assertTrue(problems.stream().anyMatch(problem -> problem.contains("bad/values.yaml")));
        assertTrue(problems.stream().anyMatch(problem -> problem.contains("bad/duplicate-b.yaml")));
    }

    @Test
    void theShippedChinookFileIsValid() {
        DeclarationReader.Result result = DeclarationReader.read(ToolFiles.read(List.of("config/tools/chinook.yaml")),
                new DeclarationReader.Context(Set.of("default"), Set.of("run_sql"), SqlGuard.defaults(), name -> null));

        assertEquals(List.of(), result.problems());
        assertTrue(result.declarations().tools().size() >= 6);
    }

    @Test
    void shippedToolsThePolicyRefusesStopTheStartSayingHowToStartWithoutThem() {
        // A policy that denies invoice, as an operator's own policy on the demo database might.
        TablePolicy tables = new TablePolicy(Optional.empty(), Optional.of(List.of("invoice")));
        StatementPolicy policy = (source, sql, named) -> tables.refusal(named);
        DeclarationReader.Result result = DeclarationReader.read(List.of(ToolFiles.shipped()), new DeclarationReader.Context(
                Set.of("default"), Set.of("run_sql"), SqlGuard.defaults(), name -> null, policy));

        String message = DeclarativeTools.startFailure(result.problems(), true).getMessage();

        // Each refused tool by name, with what it reads, then what to do.
        assertTrue(message.contains("classpath:declarative/tools/chinook.yaml:"), message);
        assertTrue(message.contains("tools.sales_by_country_and_month.statement: the statement reads what the table policy "
                + "refuses: Table invoice is not available"), message);
        assertTrue(message.contains("tools.top_customers.statement: the statement reads what the table policy refuses: "
                + "Table invoice is not available"), message);
        assertTrue(message.contains("Set sqlagent.tools.shipped=false (SQLAGENT_TOOLS_SHIPPED=false) to start without them"),
                message);
        // Tool files of the operator's own get no such advice: those tools are theirs to fix.
        assertFalse(DeclarativeTools.startFailure(result.problems(), false).getMessage().contains("sqlagent.tools.shipped"));
    }
}
