package io.sqlagent.security;

import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.Config;

import io.quarkus.runtime.StartupEvent;
import io.sqlagent.Redaction;

/**
 * Refuses to start while a credential setting still holds one of the example values the project
 * ships (k8s/secret.example.yaml's {@code change-me…}, the docs' {@code sk-...}): copied as it is,
 * such a value is a working credential everyone who read the example knows. The message names each
 * setting (once, as it was set: an environment variable is not named again as the property it sets)
 * and how to make a value of one's own; the log shows the example value, which is no secret
 * ({@link Redaction#isExampleValue}).
 */
@ApplicationScoped
public class PlaceholderSecretCheck {

    /**
     * Settings that hold a credential, by name as a property ({@code sqlagent.auth.bootstrap-key}) or
     * as an environment variable ({@code SQLAGENT_SOURCES_WAREHOUSE_PASSWORD}): passwords, secrets,
     * keys and tokens, and URLs, which may carry a password.
     */
    private static final Pattern CREDENTIAL = Pattern.compile(".*(password|secret|key|token|url).*");

    private final Config config;

    PlaceholderSecretCheck(Config config) {
        this.config = config;
    }

    void checkOnStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) {
        String problem = problem(placeholders(config));
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }

    /** The credential settings of {@code config} whose value is an example value, with that value, by name. */
    static Map<String, String> placeholders(Config config) {
        Map<String, String> found = new TreeMap<>();
        for (String name : config.getPropertyNames()) {
            String normalized = name.toLowerCase(Locale.ROOT).replace('_', '.');
            if (!CREDENTIAL.matcher(normalized).matches()) {
                continue;
            }
            String value;
            try {
                value = config.getConfigValue(name).getValue();
            } catch (RuntimeException unreadable) {
                // A value with an expression that does not resolve is reported by whatever reads it.
                continue;
            }
            if (value != null && isPlaceholder(value)) {
                found.put(name, value);
            }
        }
        // An environment variable is also seen under the property it sets: name it once, as it was set.
        Set<String> setAsEnvironment = new HashSet<>();
        found.keySet().stream().filter(name -> name.equals(name.toUpperCase(Locale.ROOT)))
                .forEach(name -> setAsEnvironment.add(sameSetting(name)));
        found.keySet().removeIf(name -> !name.equals(name.toUpperCase(Locale.ROOT))
                && setAsEnvironment.contains(sameSetting(name)));
        return found;
    }

    private static String sameSetting(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", ".");
    }

    /** Whether {@code value}, or the password in it when it is a URL, is one of the example values. */
    static boolean isPlaceholder(String value) {
        String text = value.strip();
        if (Redaction.isExampleValue(text)) {
            return true;
        }
        int at = text.lastIndexOf('@');
        int scheme = text.indexOf("://");
        if (scheme > 0 && at > scheme) {
            String userInfo = text.substring(scheme + 3, at);
            int colon = userInfo.indexOf(':');
            return colon >= 0 && Redaction.isExampleValue(userInfo.substring(colon + 1));
        }
        return false;
    }

    /** What to tell the person starting the service, or null when nothing is a placeholder. */
    static String problem(Map<String, String> placeholders) {
        if (placeholders.isEmpty()) {
            return null;
        }
        StringBuilder message = new StringBuilder("Settings still hold an example value the project ships, which anyone who "
                + "read the example knows; set values of your own and start again:");
        placeholders.forEach((name, value) -> message.append("\n  ").append(name).append(" = '").append(value).append("': ")
                .append(advice(name.toLowerCase(Locale.ROOT).replace('_', '.'))));
        return message.toString();
    }

    private static String advice(String name) {
        if (name.contains("password") || name.contains("url")) {
            return "the database role's real password (in the Secret sqlagent-db on Kubernetes)";
        }
        if (name.contains("openai") || name.contains("langchain4j")) {
            return "your model provider's API key, or remove the setting for a server that needs none";
        }
        return "a long random value, for example from: openssl rand -hex 32";
    }
}
