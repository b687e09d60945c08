package io.sqlagent.jsonschema;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Describes and constrains one tool argument declared as a record component or method parameter;
 * {@link SchemaGenerator} turns it into JSON Schema keywords. Every attribute has an "unset"
 * default, so only what is written ends up in the schema.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.RECORD_COMPONENT, ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD })
public @interface Param {

    /** What the argument means, for the model; emitted as {@code description}. */
    String description() default "";

    /**
     * Whether the model must supply the argument. Ignored (the argument is optional) when the
     * type is an {@code Optional} or a {@link #defaultValue()} is given.
     */
    boolean required() default true;

    /**
     * The value used when the argument is left out, as JSON text ({@code "5"}, {@code "false"},
     * {@code "\"all\""}); text that is not JSON is taken as a string.
     */
    String defaultValue() default "";

    /** Inclusive lower bound for a number; NaN means none. */
    double minimum() default Double.NaN;

    /** Inclusive upper bound for a number; NaN means none. */
    double maximum() default Double.NaN;

    /** Java regular expression a string must contain a match of (unanchored, as in JSON Schema). */
    String pattern() default "";

    /** Minimum string length in code points; -1 means none. */
    int minLength() default -1;

    /** Maximum string length in code points; -1 means none. */
    int maxLength() default -1;

    /** Minimum number of array items; -1 means none. */
    int minItems() default -1;

    /** Maximum number of array items; -1 means none. */
    int maxItems() default -1;

    /** The only values a string may take; emitted as {@code enum}. */
    String[] allowed() default {};

    /** A sample value as JSON text (or a plain string); emitted as {@code examples}. */
    String example() default "";
}
