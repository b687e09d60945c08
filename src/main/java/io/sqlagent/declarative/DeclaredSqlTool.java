package io.sqlagent.declarative;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.TextNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.run.FetchOptions;
import io.sqlagent.sql.run.QueryResult;
import io.sqlagent.sql.run.QueryRunner;
import io.sqlagent.sql.source.SourceRegistry;
import io.sqlagent.tool.Tool;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolMetadata;
import io.sqlagent.tool.ToolResult;

/**
 * A tool declared in a file: binds the validated arguments to its statement as parameters of its source's engine
 * ({@code $1} on PostgreSQL, {@code ?} on MySQL and MariaDB), runs it on its source through {@link QueryRunner}
 * (read-only transaction, timeout, the table policy, caps), and answers in the {@code run_sql} JSON shape or as a
 * markdown table.
 */
final class DeclaredSqlTool implements Tool {

    /** Rows one page takes with {@code fetchAllRows} and no {@code rowsToFetch}. */
    static final int DEFAULT_PAGE_SIZE = 1000;

    private final DeclaredTool tool;
    private final ToolDescriptor descriptor;
    private final SourceRegistry sources;
    private final QueryRunner runner;
    private final FetchOptions fetch;

    DeclaredSqlTool(DeclaredTool tool, SourceRegistry sources, QueryRunner runner, int defaultRows, int maxFetchRows) {
        this.tool = tool;
        this.descriptor = describe(tool);
        this.sources = sources;
        this.runner = runner;
        int rows = Math.min(tool.rowsToFetch().orElse(tool.fetchAllRows() ? DEFAULT_PAGE_SIZE : defaultRows), maxFetchRows);
        this.fetch = new FetchOptions(rows, tool.fetchAllRows() ? maxFetchRows : rows, tool.security().readOnly());
    }

    /** The descriptor of a declared tool: its parameters' schema, and its security and metadata blocks as metadata. */
    static ToolDescriptor describe(DeclaredTool tool) {
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("source", tool.source());
        extra.put("file", tool.file());
        extra.put("response_format", tool.markdown() ? "markdown" : "json");
        if (!tool.security().scopes().isEmpty()) {
            extra.put("scopes", tool.security().scopes());
        }
        tool.security().requiredAuthority().ifPresent(authority -> extra.put("required_authority", authority));
        tool.security().warning().ifPresent(warning -> extra.put("warning", warning));
        tool.metadata().forEach((key, value) -> {
            if (value != null) {
                extra.put(key, value);
            }
        });
        String title = String.valueOf(tool.metadata().getOrDefault("title", tool.name()));
        @SuppressWarnings("unchecked")
        List<String> keywords = tool.metadata().get("keywords") instanceof List<?> list
                ? list.stream().map(String::valueOf).toList()
                : List.of();
        ToolMetadata metadata = new ToolMetadata(title, keywords, Optional.of(DeclarativeTools.GROUP),
                tool.security().readOnly(),
                tool.security().audit(), extra);
        String description = tool.description()
                + tool.security().warning().map(warning -> "\nWarning: " + warning).orElse("");
        return new ToolDescriptor(tool.name(), description, ParameterSchemas.arguments(tool.parameters()),
                Optional.of(tool.markdown() ? "a markdown table of the rows, with a footer saying how many there are"
                        : "{\"rows\":[{...}],\"row_count\":n,\"total_rows\":n,\"truncated\":bool}"),
                Optional.empty(), metadata);
    }

    @Override
    public ToolDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public Uni<ToolResult> invoke(ToolCall call, ToolCallContext context) {
        return Uni.createFrom().item(() -> sources.find(tool.source()).orElseThrow(() -> new ToolException(
                "The source '" + tool.source() + "' of tool '" + tool.name() + "' is not available")))
                .flatMap(source -> {
                    StatementBinder.Bound bound = StatementBinder.bind(tool, call.arguments(), source.engine());
                    return runner.run(source, bound.sql(), bound.values(), fetch, context);
                })
                .map(this::answer);
    }

    private ToolResult answer(QueryResult result) {
        if (tool.markdown()) {
            return ToolResult.success(TextNode.valueOf(MarkdownTable.render(descriptor.metadata().title(), result,
                    tool.maxDisplayRows().orElse(Integer.MAX_VALUE), fetch.maxRows())));
        }
        return ToolResult.written(result);
    }
}
