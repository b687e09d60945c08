package io.sqlagent.builtin;

import java.util.Map;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.smallrye.mutiny.Uni;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.knowledge.schema.SchemaSearch;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceChoice;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.TypedTool;

/**
 * {@code search_schema}: the tables of a source (the default one unless the call names another) that fit a question, best
 * first, found by their
 * names, columns and comments (by words and by meaning) and by what the knowledge base says about them.
 * The first step on a large schema, before {@code introspect_schema} describes the few tables found.
 */
@Singleton
@ToolDefinition(name = "search_schema", title = "Search schema", namespace = "sql", tags = { "sql", "schema", "tables",
        "search" }, readOnly = true, auditArguments = true, description = "Find the database tables relevant to a question, "
                + "by meaning and by words in table and column names, comments and the knowledge base. Returns schema-qualified "
                + "table names with a one-line summary, best first.", returns = "{\"tables\":[{\"table\",\"summary\",\"score\"}]}: "
                        + "best first; score is 0-1 (1 = first by every ranking)", usage = "Call with the question's key terms "
                                + "first, then introspect_schema with table_name for the tables you will query.")
public class SearchSchemaTool extends TypedTool<SearchSchemaTool.Arguments> {

    private static final int DEFAULT_LIMIT = 10;

    private final SchemaSearch search;
    private final SourceChoice sources;

    SearchSchemaTool(SchemaSearch search, SourceChoice sources) {
        this.search = search;
        this.sources = sources;
    }

    /** Arguments of {@code search_schema}. */
    public record Arguments(
            @Param(description = "What the tables should hold: the question, or its key terms.", minLength = 1, maxLength = 1000, pattern = "\\S") String query,
            @Param(description = "Maximum number of tables to return (1-50).", minimum = 1, maximum = 50, defaultValue = "10") Integer limit,
            @Param(description = SourceArgument.DESCRIPTION, maxLength = 200) Optional<String> source) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        int limit = arguments.limit() == null ? DEFAULT_LIMIT : arguments.limit();
        Source source = sources.choose(arguments.source(), context.identity());
        return search.of(source.name()).search(arguments.query(), limit).map(hits -> Map.of("tables", hits));
    }
}
