package io.sqlagent.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The refusal of a request body bound to a record ({@link StrictBodies}) whose JSON has the wrong type: on a record
 * component, for a value of the wrong type; on the record, for a body that is not a JSON object (the answer names what
 * came instead: "…, not an array"). The value is {@code "<error code>: <message>"}, in the form every constraint
 * message of a body record has ({@link BindingErrors}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.RECORD_COMPONENT })
public @interface OnWrongType {

    /** {@code "<error code>: <message>"}, for example {@code "invalid_judge: judge must be true or false"}. */
    String value();
}
