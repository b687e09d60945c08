package io.sqlagent.tool;

import java.util.function.Supplier;

/**
 * A tool known by its descriptor, built only when first called: how declarative and other
 * programmatic tools join the {@link ToolRegistry}.
 *
 * @param descriptor the tool's descriptor, available without building it
 * @param factory builds the tool; called at most once
 */
public record ToolRegistration(ToolDescriptor descriptor, Supplier<? extends Tool> factory) {

    /** A registration for a tool that already exists. */
    public static ToolRegistration of(Tool tool) {
        return new ToolRegistration(tool.descriptor(), () -> tool);
    }
}
