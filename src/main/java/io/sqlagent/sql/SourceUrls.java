package io.sqlagent.sql;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;

import io.sqlagent.Redaction;

/**
 * Reads which engine a source's URL names ({@link #engine}), normalises the accepted spellings of a URL
 * to the reactive client's form and hides credentials when a URL is shown to a person.
 */
public final class SourceUrls {

    /** What may follow the user info: host(s) and port, then the path, the query or nothing. */
    private static final Pattern AFTER_USER_INFO = Pattern.compile("[A-Za-z0-9.\\-\\[\\]:,%]*([/?].*)?");

    /** Characters a user or password may hold that the client's URL parser would read as structure. */
    private static final String STRUCTURAL = "@/#?:+ &=";

    /** The engine of {@code postgresql://} URLs. */
    public static final String POSTGRESQL = "postgresql";
    /** The engine of {@code mysql://} URLs. */
    public static final String MYSQL = "mysql";
    /** The engine of {@code mariadb://} URLs. */
    public static final String MARIADB = "mariadb";

    /** Each accepted spelling of a URL's start, and the engine it names; the canonical spelling of each is its name. */
    private static final Map<String, String> SCHEMES = Map.of(
            "postgresql://", POSTGRESQL, "postgres://", POSTGRESQL, "jdbc:postgresql://", POSTGRESQL,
            "vertx-reactive:postgresql://", POSTGRESQL,
            "mysql://", MYSQL, "jdbc:mysql://", MYSQL,
            "mariadb://", MARIADB, "jdbc:mariadb://", MARIADB);

    private SourceUrls() {
    }

    /**
     * The engine {@code url} names: {@link #POSTGRESQL} ({@code postgresql://}, {@code postgres://},
     * {@code jdbc:postgresql://}), {@link #MYSQL} ({@code mysql://}, {@code jdbc:mysql://}) or {@link #MARIADB}
     * ({@code mariadb://}, {@code jdbc:mariadb://}), whatever the case of the scheme.
     *
     * @throws IllegalArgumentException naming the scheme (never the password) and the ones accepted
     */
    public static String engine(String url) {
        String trimmed = url == null ? "" : url.trim();
        for (Map.Entry<String, String> spelling : SCHEMES.entrySet()) {
            String prefix = spelling.getKey();
            if (trimmed.regionMatches(true, 0, prefix, 0, prefix.length())) {
                return spelling.getValue();
            }
        }
        int end = trimmed.indexOf("://");
        String scheme = end > 0 && !trimmed.substring(0, end).contains("@") ? trimmed.substring(0, end) : "";
        throw new IllegalArgumentException("'" + redact(trimmed) + "' "
                + (scheme.isEmpty() ? "has no scheme" : "has the scheme '" + scheme + "', which no engine serves")
                + "; expected postgresql://host:port/database, mysql://host:port/database or mariadb://host:port/database");
    }

    /**
     * Returns the URL in its engine's own form ({@code postgresql://}, {@code mysql://} or {@code mariadb://}), with
     * the user and password percent-encoded where the client would read them as structure.
     *
     * @throws IllegalArgumentException as {@link #engine} does
     */
    public static String canonical(String url) {
        String engine = engine(url);
        String trimmed = url.trim();
        String rest = trimmed.substring(trimmed.indexOf("://") + "://".length());
        return engine + "://" + encodeUserInfo(rest);
    }

    /**
     * Returns the URL in {@code postgresql://} form.
     *
     * @throws IllegalArgumentException if it is not a PostgreSQL URL
     */
    public static String normalise(String url) {
        if (!POSTGRESQL.equals(engine(url))) {
            throw new IllegalArgumentException("'" + redact(url.trim())
                    + "' is not a PostgreSQL URL; expected postgresql://host:port/database");
        }
        return canonical(url);
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
