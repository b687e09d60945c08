package io.sqlagent;

import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Whether a setting's value is the embedded PostgreSQL's (the shipped demo) rather than the user's: the
 * embedded server's configuration source has this name. Here, below every capability, because the
 * source registry and the declared tools ask it and the embedded server's package depends on them.
 */
public final class EmbeddedDemo {

    /** The name of the configuration source the embedded server adds. */
    public static final String CONFIG_SOURCE_NAME = "sqlagent embedded PostgreSQL";

    private EmbeddedDemo() {
    }

    /**
     * Whether {@code property}'s value comes from the embedded server. Not a @ConfigMapping read: the
     * question is where the value came from, which only the configuration itself can tell.
     */
    public static boolean setsProperty(String property) {
        return CONFIG_SOURCE_NAME.equals(ConfigProvider.getConfig().getConfigValue(property).getSourceName());
    }
}
