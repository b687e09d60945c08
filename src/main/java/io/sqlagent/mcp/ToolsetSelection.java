package io.sqlagent.mcp;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.UnknownToolsetException;

/**
 * The toolsets an MCP client asked for with {@code ?toolsets=a,b} on the endpoint URL, resolved
 * against the registry: the tools it may see and call, or why the selection is not valid.
 *
 * @param requested the toolset names as given, empty for all tools
 * @param toolNames the tools selected; {@code null} when every tool is
 * @param error why the selection is invalid (unknown toolsets), or {@code null}
 */
public record ToolsetSelection(List<String> requested, Set<String> toolNames, String error) {

    /** The query parameter that selects toolsets. */
    public static final String PARAMETER = "toolsets";

    private static final ToolsetSelection ALL = new ToolsetSelection(List.of(), null, null);

    /** Every tool: what a client gets without the parameter. */
    public static ToolsetSelection all() {
        return ALL;
    }

    /**
     * Resolves the values of the {@code toolsets} parameter (each may list several names,
     * comma-separated; blanks are ignored) against the registry's current toolsets.
     */
    public static ToolsetSelection resolve(List<String> parameterValues, ToolRegistry registry) {
        List<String> names = parameterValues.stream()
                .flatMap(value -> Arrays.stream(value.split(",")))
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .distinct()
                .toList();
        if (names.isEmpty()) {
            return ALL;
        }
        try {
            Set<String> tools = registry.list(names).stream().map(ToolDescriptor::name).collect(Collectors.toUnmodifiableSet());
            return new ToolsetSelection(names, tools, null);
        } catch (UnknownToolsetException unknown) {
            return new ToolsetSelection(names, Set.of(), unknown.getMessage()
                    + ". Choose toolsets with ?" + PARAMETER + "=name1,name2 on the MCP URL, or leave it out for all tools.");
        }
    }

    public boolean isValid() {
        return error == null;
    }

    /** Whether a client with this selection may see and call {@code tool}. */
    public boolean allows(String tool) {
        return error == null && (toolNames == null || toolNames.contains(tool));
    }

    /** Why {@code tool} may not be called with this selection. */
    String refusal(String tool) {
        if (error != null) {
            return error;
        }
        return "Tool '" + tool + "' is not in the selected toolsets (" + String.join(", ", requested)
                + "); connect without ?" + PARAMETER + "= or add a toolset that contains it.";
    }
}
