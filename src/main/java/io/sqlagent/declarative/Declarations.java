package io.sqlagent.declarative;

import java.util.List;

import io.sqlagent.tool.Toolset;

/**
 * Everything the tool files declare, after every check passed.
 *
 * @param sources the declared sources
 * @param tools the enabled tools, by name order
 * @param toolsets the toolsets (group {@value DeclarativeTools#GROUP})
 * @param files the files they came from
 */
public record Declarations(List<DeclaredSource> sources, List<DeclaredTool> tools, List<Toolset> toolsets,
        List<String> files) {

    public Declarations {
        sources = List.copyOf(sources);
        tools = List.copyOf(tools);
        toolsets = List.copyOf(toolsets);
        files = List.copyOf(files);
    }
}
