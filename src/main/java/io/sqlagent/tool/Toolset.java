package io.sqlagent.tool;

import java.util.List;

/**
 * A named selection of tools a caller can ask for (a chat request, an MCP client, {@code GET
 * /api/tools?toolset=}), registered with the group of tools that declared it.
 *
 * @param name the toolset's name
 * @param title a short human title, or the name
 * @param description what the toolset is for, possibly empty
 * @param tools names of the tools it selects
 * @param group the registry group that owns it (see {@link ToolRegistry#replaceGroup})
 */
public record Toolset(String name, String title, String description, List<String> tools, String group) {

    public Toolset {
        tools = List.copyOf(tools);
        title = title == null || title.isBlank() ? name : title;
        description = description == null ? "" : description;
    }
}
