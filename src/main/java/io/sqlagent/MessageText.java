package io.sqlagent;

/**
 * Shortening text for messages, written once: every message the service shows quotes input or
 * output cut to a bound, never whole, and never splits a character in two. Also where in a text an
 * offset is, as a person finds it in an editor, for the messages that point into SQL.
 */
public final class MessageText {

    private MessageText() {
    }

    /** {@code text} if it has at most {@code max} characters, else its first {@code max} and an ellipsis. */
    public static String shorten(String text, int max) {
        if (text == null) {
            return "";
        }
        if (text.length() <= max || text.codePointCount(0, text.length()) <= max) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, max)) + "…";
    }

    /**
     * As {@link #shorten} but saying how much was left off: {@code first max…[N more characters]},
     * for values a reader may want to know the size of.
     */
    public static String cut(String text, int max) {
        if (text == null) {
            return "";
        }
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
        return text.substring(0, end) + "…[" + (text.length() - end) + " more characters]";
    }

    /**
     * "line L, column C" for an offset into {@code text}, both counted from 1 as an editor would: a line ends at
     * {@code \n}, {@code \r\n} or a lone {@code \r}.
     */
    public static String lineAndColumn(String text, int offset) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset && i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                line++;
                column = 1;
            } else if (c != '\r') {
                column++;
            }
        }
        return "line " + line + ", column " + column;
    }
}
