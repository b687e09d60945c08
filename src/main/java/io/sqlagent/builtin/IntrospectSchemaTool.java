package io.sqlagent.builtin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.knowledge.schema.SchemaIndex;
import io.sqlagent.knowledge.schema.SchemaSearchConfig;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.run.QueryResult;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.schema.SchemaIntrospector;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceChoice;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.TypedTool;

/**
 * {@code introspect_schema}: lists the tables of the agent's source, or describes one (columns,
 * keys, relationships, comments, up to three sample rows). Names, descriptions and shapes follow
 * the SQL-agent tool contract. Hidden columns are left out of the columns, the relationships and
 * the sample rows. On a large database the listing is paged and points at {@code search_schema}; low-cardinality text
 * columns carry their values ({@link ValueHints}). The same answer on every engine: a MySQL or MariaDB source's schema
 * is read through its engine ({@link SchemaIntrospector}), its samples in its dialect.
 */
@Singleton
@ToolDefinition(name = "introspect_schema", title = "Introspect schema", namespace = "sql", tags = { "sql", "schema",
        "tables" }, readOnly = true, description = "Get detailed schema information about database tables. Can inspect a specific table or list all available tables.", returns = "Without table_name: {\"tables\":[...],\"count\"}; on a large database one page, {\"count\",\"page\",\"pages\","
                + "\"tables\":[{\"table\",\"summary\"}],\"next_page\",\"hint\"}. With table_name: {\"table\",\"description\",\"columns\":[{\"name\",\"type\",\"nullable\","
                + "\"primary_key\",\"foreign_key\",\"references\",\"default\",\"description\",\"values\"?}],\"relationships\":[{\"type\",\"related_table\","
                + "\"foreign_key\",\"local_key\"}],\"sample_data\":[...]}", usage = "On a large database call search_schema first; call with a table_name before writing SQL against a table.")
public class IntrospectSchemaTool extends TypedTool<IntrospectSchemaTool.Arguments> {

    private static final int SAMPLE_ROWS = 3;

    private final SchemaIntrospector introspector;
    private final SourceChoice sources;
    private final QueryRunner runner;
    private final TablePolicy tables;
    private final ColumnPolicy hiddenColumns;
    private final SchemaSearchConfig.Listing listing;
    private final ValueHints hints;

    IntrospectSchemaTool(SchemaIntrospector introspector, SourceChoice sources, QueryRunner runner, TablePolicy tables,
            ColumnPolicy hiddenColumns, SchemaSearchConfig schema) {
        this.introspector = introspector;
        this.sources = sources;
        this.runner = runner;
        this.tables = tables;
        this.hiddenColumns = hiddenColumns;
        this.listing = schema.listing();
        this.hints = new ValueHints(runner, schema.valueHints());
    }

    /** Arguments of {@code introspect_schema}. */
    public record Arguments(
            @Param(description = "Optional: The name of a specific table to inspect. If not provided, lists all tables.", maxLength = 200) Optional<String> tableName,
            @Param(description = "Whether to include sample data from the table (up to 3 rows). This data is for understanding the schema only - never use it directly in responses to the user.", defaultValue = "false") Optional<Boolean> includeSampleData,
            @Param(description = "Without table_name on a large database: the page of the table listing to return (from 1).", minimum = 1) Optional<Integer> page,
            @Param(description = SourceArgument.DESCRIPTION, maxLength = 200) Optional<String> source) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        Source source = sources.choose(arguments.source(), context.identity());
        return introspector.relations(source)
                .map(all -> all.stream().filter(relation -> tables.permitsNames(relation.policyNames())).toList())
                .flatMap(relations -> arguments.tableName().filter(name -> !name.isBlank())
                        .map(name -> describe(source, relations, name, arguments.includeSampleData().orElse(false), context)
                                .map(Object.class::cast))
                        .orElseGet(() -> Uni.createFrom().item(listing(relations, arguments.page().orElse(1)))));
    }

    /**
     * Every name on a small database; on a large one (more than {@code listing.max-names} tables) one page of names with
     * their one-line summaries, and a pointer to {@code search_schema}, so a listing never fills the model's context.
     */
    private Map<String, Object> listing(List<SchemaIntrospector.Relation> relations, int page) {
        if (relations.size() <= listing.maxNames()) {
            List<String> names = relations.stream().map(SchemaIntrospector.Relation::displayName).toList();
            return Map.of("tables", names, "count", names.size());
        }
        int size = listing.pageSize();
        int pages = (relations.size() + size - 1) / size;
        if (page > pages) {
            throw new ToolException("Page " + page + " is past the last page of the table listing (" + pages + ")");
        }
        List<Map<String, Object>> tablesOnPage = relations.subList((page - 1) * size, Math.min(relations.size(), page * size))
                .stream().map(IntrospectSchemaTool::summary).toList();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("count", relations.size());
        answer.put("page", page);
        answer.put("pages", pages);
        answer.put("tables", tablesOnPage);
        answer.put("next_page", page < pages ? page + 1 : null);
        answer.put("hint", "This database has " + relations.size() + " tables: call search_schema with the question's key "
                + "terms to find the ones you need, then introspect_schema with table_name for each.");
        return answer;
    }

    private static Map<String, Object> summary(SchemaIntrospector.Relation relation) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("table", relation.schema() + "." + relation.name());
        item.put("summary", SchemaIndex.summary(relation.description()));
        return item;
    }

    private Uni<ObjectNode> describe(Source source, List<SchemaIntrospector.Relation> relations, String name, boolean sample,
            ToolCallContext context) {
        SchemaIntrospector.Relation relation = SchemaIntrospector.find(relations, name)
                .orElseThrow(() -> new ToolException("Table '" + name + "' does not exist or cannot be read. Tables: "
                        + String.join(", ",
                                relations.stream().map(SchemaIntrospector.Relation::displayName).limit(100).toList())));
        return introspector.columns(source, relation).flatMap(all -> {
            Set<String> hidden = hiddenColumns.hidden(relation.policyNames(),
                    all.stream().map(column -> (String) column.get("name")).toList());
            Set<String> shownTables = relations.stream().map(SchemaIntrospector.Relation::name).collect(Collectors.toSet());
            List<Map<String, Object>> columns = all.stream().filter(column -> !hidden.contains(column.get("name")))
                    .map(column -> withoutRefusedReference(column, shownTables)).toList();
            Uni<ArrayNode> sampleRows = sample && !columns.isEmpty()
                    // Sample rows are the caller's rows: its role and the source's row-level security apply.
                    ? runner.run(source, sampleQuery(source, relation, columns), context).map(QueryResult::rowObjects)
                    : Uni.createFrom().item(SnakeCaseJson.MAPPER.createArrayNode());
            Uni<Void> hinted = hints.add(source, relation, columns, context.identity());
            return introspector.relationships(source, relation)
                    .flatMap(relationships -> hinted.flatMap(done -> sampleRows).map(rows -> {
                        Map<String, Object> described = new LinkedHashMap<>();
                        described.put("table", relation.displayName());
                        described.put("description", relation.description());
                        described.put("columns", columns);
                        described.put("relationships",
                                relationships.stream().filter(r -> !hidden.contains(localColumn(r))
                                        && shownTables.contains(r.get("related_table"))).toList());
                        // The rows are set as they are: a round trip through valueToTree would re-read their numbers.
                        ObjectNode tree = SnakeCaseJson.MAPPER.valueToTree(described);
                        tree.set("sample_data", rows);
                        return tree;
                    }));
        });
    }

    /**
     * {@code column} without the table its foreign key references when that table is not listed (the table policy refuses
     * it), so a description never names a table the listing leaves out.
     */
    private static Map<String, Object> withoutRefusedReference(Map<String, Object> column, Set<String> shownTables) {
        Object references = column.get("references");
        if (references instanceof String target && !shownTables.contains(target.substring(0, target.lastIndexOf('.')))) {
            Map<String, Object> shown = new LinkedHashMap<>(column);
            shown.put("references", null);
            return shown;
        }
        return column;
    }

    /** The described table's own column in a relationship. */
    private static Object localColumn(Map<String, Object> relationship) {
        return "belongsTo".equals(relationship.get("type")) ? relationship.get("foreign_key") : relationship.get("local_key");
    }

    /**
     * Names every shown column rather than {@code *}, so hidden columns are never read; in the dialect of the source's
     * engine.
     */
    private static String sampleQuery(Source source, SchemaIntrospector.Relation relation,
            List<Map<String, Object>> columns) {
        return source.engine().schema().sampleStatement(SchemaIntrospector.table(relation),
                columns.stream().map(column -> (String) column.get("name")).toList(), SAMPLE_ROWS);
    }
}
