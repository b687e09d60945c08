package io.sqlagent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Hides credentials in any text a person may see: readiness details, log lines, {@code error}
 * events and tool errors. One place, so every path hides the same things:
 * <ul>
 * <li>the password of a URL's user info ({@code postgresql://app:***@db/shop}), also when the
 * password itself holds {@code @}, {@code /}, {@code #} or {@code ?} (the user info then ends at
 * the last {@code @});</li>
 * <li>{@code password=} parameters, {@code Bearer} tokens and OpenAI-style {@code sk-} keys;</li>
 * <li>every secret the configuration holds (properties named {@code *password*},
 * {@code *api-key*}, {@code *secret*}, {@code *token*}, and URL passwords), and any registered
 * with {@link #secret}, wherever and however they appear.</li>
 * </ul>
 * An example value the project ships ({@code sk-change-me}, {@code change-me…}; {@link #isExampleValue}) is not
 * hidden: everyone who read the example knows it, and the message that refuses it must show which value to replace.
 * Static rather than a bean: values must be hidden also in code that has no bean at hand (records,
 * static error mappers) and in lines logged while the application starts.
 */
public final class Redaction {

    /** What a hidden value reads as. */
    public static final String HIDDEN = "***";

    /** Shorter values are not looked for in text: hiding every "abc" would garble messages, not protect them. */
    private static final int MIN_SECRET_LENGTH = 4;

    private static final Pattern URL_START = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://");
    private static final Pattern QUERY_PASSWORD = Pattern.compile("([?&;]password=)[^&#\\s'\"]*", Pattern.CASE_INSENSITIVE);
    private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer\\s+)[A-Za-z0-9._~+/=-]+");
    private static final Pattern API_KEY = Pattern.compile("\\bsk-[A-Za-z0-9_-]{6,}");
    /**
     * The example values, whatever their case: every {@code change-me} variant the example Secret
     * ships (also {@code changeme}, {@code change_me}; not inside a word, as in {@code exchange-metrics}),
     * the {@code sk-...} / {@code ...} the docs write where a key goes, and {@code <key>}-style slots.
     */
    private static final Pattern EXAMPLE_VALUE = Pattern
            .compile("(?i).*(?<![a-z])change[-_]?me(?![a-z]).*|(sk-)?\\.\\.\\.|<[^>]*>");
    private static final Pattern SECRET_PROPERTY = Pattern
            .compile("(?i).*[._-](password|api-key|api_key|apikey|secret|token)$");
    private static final Pattern USER_PROPERTY = Pattern.compile("(?i).*[._-](username|user)$");
    private static final Pattern URL_PROPERTY = Pattern.compile("(?i).*[._-](url)$");

    private static final Set<String> SECRETS = ConcurrentHashMap.newKeySet();
    private static final Set<String> USERNAMES = ConcurrentHashMap.newKeySet();
    private static volatile boolean configRead;

    private Redaction() {
    }

    /**
     * Adds a value to hide wherever it appears (a source password read from a tool file, say).
     * A value that is also a user name (the embedded server's {@code postgres}/{@code postgres})
     * is not looked for: it is shown as the user name anyway, and hiding the word would garble
     * every URL and message that holds it.
     */
    public static void secret(String value) {
        if (value != null && value.strip().length() >= MIN_SECRET_LENGTH && !USERNAMES.contains(value.strip())) {
            SECRETS.add(value.strip());
        }
    }

    /** The text with every credential replaced by {@value #HIDDEN}; {@code null} reads as "". */
    public static String redact(String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        readConfig();
        String redacted = hideKnownSecrets(text);
        redacted = hideUrlPasswords(redacted);
        redacted = QUERY_PASSWORD.matcher(redacted).replaceAll("$1" + HIDDEN);
        redacted = BEARER.matcher(redacted).replaceAll("$1" + HIDDEN);
        return API_KEY.matcher(redacted)
                .replaceAll(key -> isExampleValue(key.group()) ? Matcher.quoteReplacement(key.group()) : "sk-" + HIDDEN);
    }

    /** Whether {@code value} is one of the example values the project ships in place of a credential. */
    public static boolean isExampleValue(String value) {
        return value != null && EXAMPLE_VALUE.matcher(value.strip()).matches();
    }

    /**
     * The password of {@code url}'s user info, or null. The user info runs from {@code ://} to the
     * last {@code @} of the URL: a password may hold any character, and a host never holds {@code @}.
     */
    public static String urlPassword(String url) {
        if (url == null) {
            return null;
        }
        Matcher start = URL_START.matcher(url);
        if (!start.find()) {
            return null;
        }
        int from = start.end();
        int at = url.lastIndexOf('@');
        int colon = url.indexOf(':', from);
        return at > from && colon >= 0 && colon < at ? url.substring(colon + 1, at) : null;
    }

    private static String hideKnownSecrets(String text) {
        if (SECRETS.isEmpty()) {
            return text;
        }
        // Longest first, so a secret that contains another is hidden whole.
        List<String> secrets = new ArrayList<>(SECRETS);
        secrets.sort(Comparator.comparingInt(String::length).reversed());
        String redacted = text;
        for (String secret : secrets) {
            if (redacted.contains(secret)) {
                redacted = redacted.replace(secret, HIDDEN);
            }
        }
        return redacted;
    }

    /** Each URL's user-info password, the URL ending at white space or a quote. */
    private static String hideUrlPasswords(String text) {
        Matcher start = URL_START.matcher(text);
        StringBuilder out = null;
        int copied = 0;
        while (start.find()) {
            int from = start.end();
            int end = from;
            while (end < text.length() && !Character.isWhitespace(text.charAt(end)) && "'\"<>`".indexOf(text.charAt(end)) < 0) {
                end++;
            }
            int at = text.lastIndexOf('@', end - 1);
            int colon = text.indexOf(':', from);
            if (at < from || colon < 0 || colon > at || text.substring(colon + 1, at).equals(HIDDEN)) {
                continue;
            }
            out = out == null ? new StringBuilder(text.length()) : out;
            out.append(text, copied, colon + 1).append(HIDDEN);
            copied = at;
            start.region(Math.max(at, end), text.length());
        }
        if (out == null) {
            return text;
        }
        return out.append(text, copied, text.length()).toString();
    }

    /** Once: every secret-looking property and every URL's password in the configuration. */
    private static void readConfig() {
        if (configRead) {
            return;
        }
        configRead = true;
        Config config;
        try {
            config = ConfigProvider.getConfig();
        } catch (RuntimeException e) {
            return;
        }
        List<String> names = new ArrayList<>();
        config.getPropertyNames().forEach(names::add);
        for (String name : names) {
            if (USER_PROPERTY.matcher(name).matches()) {
                read(config, name).ifPresent(user -> USERNAMES.add(user.strip()));
            }
        }
        for (String name : names) {
            boolean secretName = SECRET_PROPERTY.matcher(name).matches();
            boolean urlName = URL_PROPERTY.matcher(name.toLowerCase(Locale.ROOT)).matches();
            if (secretName) {
                read(config, name).filter(value -> !isPlaceholder(value) && !isExampleValue(value))
                        .ifPresent(Redaction::secret);
            }
            if (urlName) {
                read(config, name).ifPresent(url -> secret(urlPassword(url)));
            }
        }
    }

    private static java.util.Optional<String> read(Config config, String name) {
        try {
            return config.getOptionalValue(name, String.class);
        } catch (RuntimeException e) {
            // A value that cannot be read (an unresolved expression) cannot be shown either.
            return java.util.Optional.empty();
        }
    }

    /** Values that configure "none" rather than hold a secret; hiding them would garble messages that name them. */
    private static boolean isPlaceholder(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        return v.equals("not-configured") || v.equals("no-key") || v.equals("none") || v.equals("true") || v.equals("false")
                || v.matches("[0-9.]+[a-z]*");
    }
}
