package io.sqlagent.sql;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import io.sqlagent.Redaction;

/**
 * Normalises the accepted spellings of a PostgreSQL URL to the reactive client's form and hides
 * credentials when a URL is shown to a person.
 */
public final class SourceUrls {

    /** What may follow the user info: host(s) and port, then the path, the query or nothing. */
    private static final Pattern AFTER_USER_INFO = Pattern.compile("[A-Za-z0-9.\\-\\[\\]:,%]*([/?].*)?");

    /** Characters a user or password may hold that the client's URL parser would read as structure. */
    private static final String STRUCTURAL = "@/#?:+ &=";

    private SourceUrls() {
    }

    /**
     * Returns the URL in {@code postgresql://} form.
     *
     * @throws IllegalArgumentException if it is not a PostgreSQL URL
     */
    public static String normalise(String url) {
        String trimmed = url == null ? "" : url.trim();
        for (String prefix : new String[] { "jdbc:postgresql://", "vertx-reactive:postgresql://", "postgres://" }) {
            if (trimmed.regionMatches(true, 0, prefix, 0, prefix.length())) {
                return "postgresql://" + encodeUserInfo(trimmed.substring(prefix.length()));
            }
        }
        if (trimmed.regionMatches(true, 0, "postgresql://", 0, "postgresql://".length())) {
            return "postgresql://" + encodeUserInfo(trimmed.substring("postgresql://".length()));
        }
        throw new IllegalArgumentException("'" + redact(trimmed)
                + "' is not a PostgreSQL URL; expected postgresql://host:port/database");
    }

    /** The URL with any password replaced by {@code ***}. */
    public static String redact(String url) {
        return Redaction.redact(url);
    }

    /**
     * Percent-encodes what the user and password of {@code rest} (the URL after {@code ://}) hold
     * that the client would read as structure: a password such as {@code p@ss/w#rd} written as is
     * otherwise makes the URL unparseable, and the parser's error quotes it whole. The user info
     * ends at the last {@code @} that is followed by a host; a password may hold any character.
     */
    static String encodeUserInfo(String rest) {
        int at = rest.lastIndexOf('@');
        if (at <= 0 || !AFTER_USER_INFO.matcher(rest.substring(at + 1)).matches()) {
            return rest;
        }
        String userInfo = rest.substring(0, at);
        int query = userInfo.indexOf('?');
        if (query >= 0 && userInfo.indexOf('=', query) > 0 && rest.indexOf('/', at) < 0) {
            // db/shop?application_name=a@b: the @ is in the query, and no database path follows it.
            return rest;
        }
        int colon = userInfo.indexOf(':');
        String user = colon < 0 ? userInfo : userInfo.substring(0, colon);
        String encoded = encode(user) + (colon < 0 ? "" : ":" + encode(userInfo.substring(colon + 1)));
        return encoded + rest.substring(at);
    }

    /** Escapes structural characters and a {@code %} that does not start an escape already written. */
    private static String encode(String part) {
        StringBuilder out = new StringBuilder(part.length());
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            char c = (char) (bytes[i] & 0xff);
            boolean escape = c == '%' && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2]);
            byte b = bytes[i];
            if (escape || c < 0x80 && c != '%' && STRUCTURAL.indexOf(c) < 0 && c > ' ') {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    private static boolean isHex(byte b) {
        return Character.digit(b, 16) >= 0;
    }
}
