package io.sqlagent;

/**
 * Shortening text for messages, written once: every message the service shows quotes input or
 * output cut to a bound, never whole, and never splits a character in two.
 */
public final class Texts {

    private Texts() {
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
}
