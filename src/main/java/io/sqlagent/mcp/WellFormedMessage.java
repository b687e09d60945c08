package io.sqlagent.mcp;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * The common case of {@link McpMessageCheck}, read without building the message: one JSON-RPC message whose
 * {@code jsonrpc}, {@code id}, {@code method} and {@code params} are as the check asks. It reads the body's tokens
 * once, skipping every value's inside (the {@code arguments} of a call), where the check's full decode built a map
 * of the whole message that nothing kept: the library reads the body again itself. A repeated member counts with
 * its last value, as it does in a decoded object. Anything else (not valid JSON to Jackson's defaults, a batch, a
 * message with a problem) is left to the full decode, so what a refused message is told does not change.
 */
final class WellFormedMessage {

    /**
     * Jackson's defaults, the strictest reading (no comments, the default limits on numbers, strings and nesting):
     * what passes here, the full decode reads too.
     */
    private static final JsonFactory JSON = new JsonFactory();

    private WellFormedMessage() {
    }

    /** Whether {@code body} is one message the check passes as it is; false when unsure, never an exception. */
    static boolean is(byte[] body) {
        try (JsonParser parser = JSON.createParser(body)) {
            return parser.nextToken() == JsonToken.START_OBJECT && wellFormed(parser) && parser.nextToken() == null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The members of the object the parser is at the start of, as {@code McpMessageCheck.problem} judges them. */
    private static boolean wellFormed(JsonParser parser) throws IOException {
        boolean version = false;
        JsonToken id = null;
        JsonToken method = null;
        JsonToken params = null;
        boolean response = false;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "jsonrpc" -> version = value == JsonToken.VALUE_STRING && "2.0".equals(parser.getText());
                case "id" -> id = value;
                case "method" -> method = value;
                case "params" -> params = value;
                case "result", "error" -> response = true;
                default -> {
                    // not looked at
                }
            }
            parser.skipChildren();
        }
        if (parser.currentToken() != JsonToken.END_OBJECT || !version) {
            return false;
        }
        if (id != null && id != JsonToken.VALUE_STRING && !id.isNumeric()) {
            return false; // null, a boolean, an object or an array
        }
        boolean noMethod = method == null || method == JsonToken.VALUE_NULL;
        if (noMethod ? !response : method != JsonToken.VALUE_STRING) {
            return false;
        }
        return params == null || params == JsonToken.VALUE_NULL || params == JsonToken.START_OBJECT;
    }
}
