package io.sqlagent.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The refusal of a field a body record ({@link StrictBodies}) does not have, for a record whose answer is not the
 * usual {@code unknown_field} listing the fields it takes: the value is {@code "<error code>: <message>"} with
 * {@code {field}} where the field's name goes, quoted at most {@link #quoteAtMost} characters long.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface OnUnknownField {

    /** {@code "<error code>: <message>"}, for example {@code "invalid_body: Unknown field '{field}': …"}. */
    String value();

    /** How many characters of the field's name the message quotes before an ellipsis. */
    int quoteAtMost() default 64;
}
