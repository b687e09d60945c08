package io.sqlagent.tool.rest;

import java.util.Locale;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.tool.ToolJson;

/**
 * Reads a request body that must be a JSON object, the same way for every endpoint: malformed
 * JSON, duplicate keys and non-objects are a {@link BadBody} with the error to answer (400);
 * an empty or all-whitespace body is an empty object.
 */
public final class JsonBodies {

    private static final ObjectReader READER = ToolJson.MAPPER.reader().with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private JsonBodies() {
    }

    /** The body's object; {@code expected} names it in the error ("a JSON object of arguments"). */
    public static ObjectNode object(byte[] body, String expected) throws BadBody {
        if (body == null || body.length == 0) {
            return ToolJson.MAPPER.createObjectNode();
        }
        JsonNode parsed;
        try {
            parsed = READER.readTree(body);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw new BadBody(ErrorBody.of("malformed_json", "The body is not valid JSON: " + e.getOriginalMessage() + where));
        } catch (java.io.IOException e) {
            throw new BadBody(ErrorBody.of("malformed_json", "The body could not be read as JSON"));
        }
        if (parsed == null || parsed.isMissingNode()) {
            return ToolJson.MAPPER.createObjectNode();
        }
        if (!parsed.isObject()) {
            throw new BadBody(ErrorBody.of("invalid_body",
                    "The body must be " + expected + ", not " + article(parsed.getNodeType().name().toLowerCase(Locale.ROOT))));
        }
        return (ObjectNode) parsed;
    }

    private static String article(String type) {
        return switch (type) {
            case "array", "object" -> "an " + type;
            case "null" -> "null";
            default -> "a " + type;
        };
    }

    /** A body that cannot be used, with the error to answer. */
    public static final class BadBody extends Exception {
        private final transient ErrorBody error;

        BadBody(ErrorBody error) {
            super(error.message(), null, false, false);
            this.error = error;
        }

        public ErrorBody error() {
            return error;
        }
    }
}
