package io.sqlagent.mcp;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;

/**
 * JSON text that Jackson writes as it is, inside the document it writes: an MCP answer's structured content whose
 * text the service has already written (a SQL result), so it is not parsed into a tree only to be written again.
 * The text must be one complete JSON value.
 */
final class RawJson extends JsonSerializable.Base {

    private final String json;

    RawJson(String json) {
        this.json = json;
    }

    @Override
    public void serialize(JsonGenerator generator, SerializerProvider provider) throws IOException {
        generator.writeRawValue(json);
    }

    @Override
    public void serializeWithType(JsonGenerator generator, SerializerProvider provider, TypeSerializer typeSerializer)
            throws IOException {
        serialize(generator, provider);
    }

    @Override
    public String toString() {
        return json;
    }
}
