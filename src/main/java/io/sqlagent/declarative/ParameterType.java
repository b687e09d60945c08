package io.sqlagent.declarative;

import java.util.Locale;

/** The parameter types of the format, with the JSON Schema type and the PostgreSQL type each binds as. */
public enum ParameterType {
    STRING("string", "text"),
    INTEGER("integer", "bigint"),
    FLOAT("number", "double precision"),
    BOOLEAN("boolean", "boolean"),
    ARRAY("array", null);

    private final String jsonType;
    private final String sqlType;

    ParameterType(String jsonType, String sqlType) {
        this.jsonType = jsonType;
        this.sqlType = sqlType;
    }

    /** The name written in tool files. */
    public String yamlName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The JSON Schema type of the argument. */
    public String jsonType() {
        return jsonType;
    }

    /**
     * The PostgreSQL type every parameter is cast to, so that a NULL has a type and the server never
     * has to guess one.
     */
    public String sqlType() {
        return sqlType;
    }

    static ParameterType of(String yamlName) {
        return valueOf(yamlName.toUpperCase(Locale.ROOT));
    }
}
