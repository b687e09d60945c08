package io.sqlagent;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Makes text storable in the store (audit log, conversations): PostgreSQL's {@code text} cannot hold a NUL character,
 * {@code jsonb} refuses the {@code \u005Cu0000} escape, and half a surrogate pair is not UTF-8 at all,
 * while a caller or a model may send any of them anywhere (arguments, tool names, answers). Each
 * becomes U+FFFD, the replacement character, so the row still shows that something was there. Hand-written because neither
 * Jackson nor the
 * PostgreSQL client has an option for it.
 */
public final class StorableText {

    private static final char NUL = '\0';
    private static final char REPLACEMENT = '\uFFFD';

    private StorableText() {
    }

    /** The text with every NUL and unpaired surrogate replaced; {@code null} stays {@code null}. */
    public static String clean(String text) {
        if (text == null || isClean(text)) {
            return text;
        }
        StringBuilder cleaned = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                cleaned.append(c).append(text.charAt(++i));
            } else {
                cleaned.append(c == NUL || Character.isSurrogate(c) ? REPLACEMENT : c);
            }
        }
        return cleaned.toString();
    }

    /** What {@link #isStorable} refuses, phrased as a problem of an argument. */
    public static final String UNSTORABLE = "holds a NUL character (U+0000) or half of a surrogate pair, which the store cannot keep";

    /**
     * Whether PostgreSQL {@code text} holds {@code text} as it is ({@code null} does): for what a caller saves on purpose,
     * such as a learning, where a cleaned copy would be a silent change and a refusal naming the argument is kinder.
     */
    public static boolean isStorable(String text) {
        return text == null || isClean(text);
    }

    /**
     * Whether {@code text} shows anything: a character that is not white space, a control or a format character (such as
     * a zero-width space) nor half of a surrogate pair. {@link String#isBlank} lets those through, while a model finds no
     * word in them and a reader sees nothing.
     */
    public static boolean isVisible(String text) {
        return text != null && text.codePoints().anyMatch(c -> !Character.isWhitespace(c) && !Character.isSpaceChar(c)
                && Character.getType(c) != Character.CONTROL && Character.getType(c) != Character.FORMAT
                && Character.getType(c) != Character.SURROGATE);
    }

    private static boolean isClean(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == NUL) {
                return false;
            }
            if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            }
        }
        return true;
    }

    /** The tree itself when every name and string is clean, else a cleaned copy. */
    public static JsonNode clean(JsonNode value) {
        return needsCleaning(value) ? copy(value) : value;
    }

    private static boolean needsCleaning(JsonNode value) {
        if (value.isTextual()) {
            return !isClean(value.textValue());
        }
        if (value.isObject()) {
            for (Map.Entry<String, JsonNode> member : value.properties()) {
                if (!isClean(member.getKey()) || needsCleaning(member.getValue())) {
                    return true;
                }
            }
            return false;
        }
        if (value.isArray()) {
            for (Iterator<JsonNode> items = value.elements(); items.hasNext();) {
                if (needsCleaning(items.next())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static JsonNode copy(JsonNode value) {
        if (value.isTextual()) {
            return TextNode.valueOf(clean(value.textValue()));
        }
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            // Two names that differ only by NUL would collide once cleaned; the later one wins, as in a JSON object.
            value.properties().forEach(member -> copy.set(clean(member.getKey()), copy(member.getValue())));
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            value.elements().forEachRemaining(item -> copy.add(copy(item)));
            return copy;
        }
        return value;
    }
}
