package io.sqlagent.tool;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a {@link TypedTool} class, or a method that {@link MethodTool} turns into a tool: its
 * name, the description sent to the model and its metadata. With the arguments record (or the
 * method's parameters) this is the whole definition; a typed tool's descriptor is built from its
 * class alone, without creating the tool.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
public @interface ToolDefinition {

    /** Unique tool name. */
    String name();

    /** What the tool does, as sent to the model. */
    String description();

    /** Short human title; defaults to the name. */
    String title() default "";

    /** Words to find the tool by. */
    String[] tags() default {};

    /** Group the tool belongs to. */
    String namespace() default "";

    /** Whether the tool never changes anything. */
    boolean readOnly() default false;

    /** Whether the audit log records the call's arguments. */
    boolean auditArguments() default false;

    /** What a successful result looks like. */
    String returns() default "";

    /** When and how to use the tool. */
    String usage() default "";

    /** Whether {@code run} blocks (JDBC, file I/O, ONNX); it then runs on a worker thread. */
    boolean blocking() default false;
}
