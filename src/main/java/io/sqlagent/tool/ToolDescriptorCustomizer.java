package io.sqlagent.tool;

/**
 * Adjusts the descriptor of a tool bean to the deployment's settings before the {@link ToolRegistry} compiles its
 * schema: what an annotation cannot say because configuration decides it (the sources {@code run_sql} may name, as an
 * {@code enum} of its {@code source} argument). Every bean of this type sees every tool bean's descriptor once, at
 * start; it returns the descriptor unchanged when it is not about that tool.
 */
public interface ToolDescriptorCustomizer {

    /** {@code descriptor} as this deployment offers it. */
    ToolDescriptor customize(ToolDescriptor descriptor);
}
