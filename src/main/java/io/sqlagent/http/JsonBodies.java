package io.sqlagent.http;

import java.util.Locale;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;

/**
 * Reads a request body that must be a JSON object, for an endpoint that takes it as a tree (tool arguments, which the
 * tool's own schema checks; edits by kind): malformed JSON, duplicate keys, content after the value and non-objects
 * are a {@link BadBody} with the error to answer (400); an empty or all-whitespace body is an empty object. A body with
 * fixed fields is bound to its record instead ({@link StrictBodies}), and its errors read the same.
 */
public final class JsonBodies {

    private static final ObjectReader READER = SnakeCaseJson.MAPPER.reader()
            .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private JsonBodies() {
    }

    /** The body's object; {@code expected} names it in the error ("a JSON object of arguments"). */
    public static ObjectNode object(byte[] body, String expected) throws BadBody {
        if (body == null || body.length == 0) {
            return SnakeCaseJson.MAPPER.createObjectNode();
        }
        JsonNode parsed;
        try (JsonParser parser = READER.createParser(body)) {
            parsed = READER.readTree(parser);
            // readTree stops after the first value; a second one or garbage after it would be ignored.
            // Reading one more token makes garbage a parse error and a second value a refusal of its own.
            if (parser.nextToken() != null) {
                throw new BadBody(moreAfterTheValue(parser.currentLocation()));
            }
        } catch (JsonProcessingException e) {
            throw new BadBody(malformed(e));
        } catch (java.io.IOException e) {
            throw new BadBody(ErrorBody.of("malformed_json", "The body could not be read as JSON"));
        }
        if (parsed == null || parsed.isMissingNode()) {
            return SnakeCaseJson.MAPPER.createObjectNode();
        }
        if (!parsed.isObject()) {
            throw new BadBody(ErrorBody.of("invalid_body",
                    "The body must be " + expected + ", not " + article(parsed.getNodeType().name().toLowerCase(Locale.ROOT))));
        }
        return (ObjectNode) parsed;
    }

    /** JSON that does not parse, with where it stopped. */
    static ErrorBody malformed(JsonProcessingException e) {
        return ErrorBody.of("malformed_json",
                "The body is not valid JSON: " + withoutSource(e.getOriginalMessage()) + where(e.getLocation()));
    }

    /** A second value, or anything else, after the body's JSON value. */
    static ErrorBody moreAfterTheValue(JsonLocation location) {
        return ErrorBody.of("malformed_json",
                "The body has more after its JSON value" + where(location) + "; send exactly one JSON object");
    }

    /**
     * Jackson's message without the description of its input it embeds in a nested location
     * ("start marker at [Source: REDACTED (`StreamReadFeature…` disabled); line: 1, column: 1]"): the
     * caller sent the body and needs only the line and column.
     */
    private static String withoutSource(String message) {
        return message == null ? "" : message.replaceAll("\\[Source: [^;\\]]*; ", "[");
    }

    private static String where(JsonLocation location) {
        return location == null ? "" : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    static String article(String type) {
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
