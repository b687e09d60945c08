package io.sqlagent.declarative;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One parameter of a declared tool, as written in its file.
 *
 * @param name the name used as {@code :name} in the statement and as the argument's name
 * @param type string, integer, float, boolean or array
 * @param itemType the element type of an array, else empty
 * @param description what the argument means, for the model
 * @param required whether the caller must give it
 * @param defaultValue the value used when it is left out
 * @param pattern a regular expression strings must match
 * @param minLength shortest string, or fewest array elements
 * @param maxLength longest string, or most array elements
 * @param enumValues the allowed values, if restricted
 * @param minimum smallest number
 * @param maximum largest number
 */
public record DeclaredParameter(String name, ParameterType type, Optional<ParameterType> itemType, String description,
        boolean required, Optional<JsonNode> defaultValue, Optional<String> pattern, Optional<Integer> minLength,
        Optional<Integer> maxLength, List<JsonNode> enumValues, Optional<JsonNode> minimum, Optional<JsonNode> maximum) {

    public DeclaredParameter {
        enumValues = List.copyOf(enumValues);
    }

    /** The type of each value bound to the database: the item type for arrays. */
    public ParameterType valueType() {
        return itemType.orElse(type);
    }

    /** Neither required nor defaulted: a missing argument binds as a typed NULL. */
    public boolean nullable() {
        return !required && defaultValue.isEmpty();
    }
}
