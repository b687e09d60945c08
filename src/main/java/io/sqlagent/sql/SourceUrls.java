package io.sqlagent.sql;

import java.util.regex.Pattern;

/**
 * Normalises the accepted spellings of a PostgreSQL URL to the reactive client's form and hides
 * credentials when a URL is shown to a person.
 */
public final class SourceUrls {

    private static final Pattern USER_INFO_PASSWORD = Pattern.compile("(://[^:/@?#]*):[^@/?#]*@");
    private static final Pattern QUERY_PASSWORD = Pattern.compile("([?&]password=)[^&#]*", Pattern.CASE_INSENSITIVE);

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
                return "postgresql://" + trimmed.substring(prefix.length());
            }
        }
        if (trimmed.regionMatches(true, 0, "postgresql://", 0, "postgresql://".length())) {
            return trimmed;
        }
        throw new IllegalArgumentException("'" + redact(trimmed)
                + "' is not a PostgreSQL URL; expected postgresql://host:port/database");
    }

    /** The URL with any password replaced by {@code ***}. */
    public static String redact(String url) {
        if (url == null) {
            return "";
        }
        String withoutUserInfo = USER_INFO_PASSWORD.matcher(url).replaceAll("$1:***@");
        return QUERY_PASSWORD.matcher(withoutUserInfo).replaceAll("$1***");
    }
}
