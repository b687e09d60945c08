package io.sqlagent.declarative;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.sqlagent.sql.guard.NamedParameters;

/**
 * One tool declared in a file, checked and ready to become a {@link DeclaredSqlTool}.
 *
 * @param name the tool's name
 * @param file the file that declares it
 * @param source the source its statement runs on
 * @param description what it does, for the model
 * @param statement the statement and its {@code :name} placeholders
 * @param parameters its parameters, in the order written
 * @param security its security options
 * @param markdown whether results are a markdown table rather than JSON
 * @param maxDisplayRows rows a markdown table shows at most, if limited
 * @param rowsToFetch rows one fetch reads (the page size with {@code fetchAllRows}), if set
 * @param fetchAllRows whether to page until done or the ceiling
 * @param metadata the {@code metadata} block, as written
 */
public record DeclaredTool(String name, String file, String source, String description, NamedParameters statement,
        List<DeclaredParameter> parameters, DeclaredToolSecurity security, boolean markdown, Optional<Integer> maxDisplayRows,
        Optional<Integer> rowsToFetch, boolean fetchAllRows, Map<String, Object> metadata) {

    public DeclaredTool {
        parameters = List.copyOf(parameters);
        metadata = Map.copyOf(metadata);
    }
}
