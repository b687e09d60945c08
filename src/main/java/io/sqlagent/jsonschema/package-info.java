/**
 * JSON Schema for tool arguments: derived from a tool's record or method ({@link io.sqlagent.jsonschema.SchemaGenerator}),
 * compiled once and checked on every call the model makes ({@link io.sqlagent.jsonschema.CompiledSchema}).
 *
 * <p>
 * This is the project's own validator, kept in place of networknt json-schema-validator (2.0.8, the line
 * built on Jackson 2 that Quarkus 3.34 uses; 3.x needs Jackson 3). Both were tried on the same tool schemas;
 * the library was not taken for three reasons, each pinned by {@code CompiledSchemaTest.doesWhatTheLibraryDoesNot}:
 * <ul>
 * <li><b>Nothing in a schema goes unenforced.</b> The library ignores a keyword it does not know, so a misspelled
 * {@code "maxLenght": 3} in a tool file silently allows any length; here it fails the start, naming its location. The
 * library also treats {@code "format": "int32"} as an annotation and accepts 99999999999, which the tool's Java
 * {@code int} then cannot hold; here the number is refused with the range it must stay in.</li>
 * <li><b>Messages written for the model.</b> The model reads every violation as its tool result and retries from it.
 * The library says {@code : property 'query' is not defined in the schema and the schema does not allow additional
 * properties} and {@code /limit: must have a maximum value of 500}; here the same calls read
 * {@code query: is not a known argument; known arguments: sql, limit} and {@code limit: must be at most 500 (got 5000)}:
 * the argument by name, what is accepted and the value it sent.</li>
 * <li><b>Speed.</b> Messages that do not echo the value are prepared at compile time, so a valid call builds no
 * strings: about 0.4 µs per valid call against about 2.7 µs for the library on the same schema (one laptop core, after
 * warm-up).</li>
 * </ul>
 * It supports the subset of JSON Schema 2020-12 that tool arguments use (listed in the compile error for any other
 * keyword); a tool that needs {@code anyOf} or {@code $ref} is a reason to revisit this choice.
 */
package io.sqlagent.jsonschema;
