package io.sqlagent.embedded;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import org.eclipse.microprofile.config.spi.ConfigSource;

import io.quarkus.logging.Log;
import io.quarkus.runtime.ExecutionMode;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.common.MapBackedConfigSource;

/**
 * Supplies the connection settings of the embedded PostgreSQL server for whatever the user left
 * unconfigured: the store when {@code quarkus.datasource.reactive.url} is unset, and source
 * {@code default} (the Chinook demo) when no {@code sqlagent.sources.<name>.url} is set. The server is
 * started here, while the runtime configuration is built, because the reactive datasource reads its
 * URL before any application bean runs. Nothing starts at build time, nor in the run that writes the class-data
 * archive ({@code quarkus.package.jar.appcds.enabled}), which stops before any datasource is used.
 */
public class EmbeddedDatabaseConfigSourceFactory implements ConfigSourceFactory {

    static final String STORE_URL = "quarkus.datasource.reactive.url";
    static final String ENABLED = "sqlagent.embedded.enabled";
    static final String DATA_DIR = "sqlagent.embedded.data-dir";
    static final String EPHEMERAL = "sqlagent.embedded.ephemeral";
    static final String PORT = "sqlagent.embedded.port";
    static final String STARTUP_TIMEOUT = "sqlagent.embedded.startup-timeout";

    /** Below application.properties (250) and everything else: these are fallbacks only. */
    private static final int ORDINAL = 50;

    /** Set on the run of the packaged service that writes its class-data archive (Quarkus' AppCDS build step). */
    static final String APPCDS_GENERATE = "quarkus.appcds.generate";

    /** The name of the configuration source this factory adds (how others tell that the demo source is in use). */
    public static final String CONFIG_SOURCE_NAME = io.sqlagent.EmbeddedDemo.CONFIG_SOURCE_NAME;

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (ExecutionMode.current() != ExecutionMode.RUNTIME_INIT || Boolean.getBoolean(APPCDS_GENERATE)) {
            return List.of();
        }
        boolean needStore = isBlank(context.getValue(STORE_URL));
        boolean needDemo = !sourcesConfigured(context);
        if (!needStore && !needDemo) {
            return List.of();
        }
        if (!bool(context, ENABLED, true)) {
            if (needStore) {
                throw new IllegalStateException("No store database is configured and the embedded PostgreSQL is disabled"
                        + " (sqlagent.embedded.enabled=false): set QUARKUS_DATASOURCE_REACTIVE_URL,"
                        + " QUARKUS_DATASOURCE_USERNAME and QUARKUS_DATASOURCE_PASSWORD");
            }
            Log.warn("No source is configured and the embedded PostgreSQL is disabled: the agent has no database"
                    + " to query until sqlagent.sources.<name>.url is set");
            return List.of();
        }
        // Logging is not configured yet while the configuration is built: quiet the library's chatter here.
        java.util.logging.Logger.getLogger("io.zonky").setLevel(java.util.logging.Level.WARNING);
        EmbeddedDatabase.Endpoint endpoint = EmbeddedDatabase.startOrReuse(settings(context));
        Map<String, String> properties = new HashMap<>();
        if (needStore) {
            properties.put(STORE_URL, endpoint.url(EmbeddedDatabase.STORE_DATABASE));
            properties.put("quarkus.datasource.username", EmbeddedDatabase.USER);
            properties.put("quarkus.datasource.password", EmbeddedDatabase.USER);
        }
        if (needDemo) {
            properties.put("sqlagent.sources.default.url", endpoint.url(EmbeddedDatabase.DEMO_DATABASE));
            properties.put("sqlagent.sources.default.username", EmbeddedDatabase.USER);
        }
        return List.of(new MapBackedConfigSource(CONFIG_SOURCE_NAME, properties, ORDINAL) {
        });
    }

    @Override
    public OptionalInt getPriority() {
        return OptionalInt.of(ORDINAL);
    }

    private static EmbeddedDatabase.Settings settings(ConfigSourceContext context) {
        String dataDir = value(context, DATA_DIR, ".sqlagent/pgdata");
        String port = value(context, PORT, "0");
        String timeout = value(context, STARTUP_TIMEOUT, "60s");
        try {
            return new EmbeddedDatabase.Settings(Path.of(dataDir), bool(context, EPHEMERAL, false),
                    Integer.parseInt(port.trim()), DurationConverter.parseDuration(timeout.trim()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Invalid embedded PostgreSQL setting (" + DATA_DIR + "=" + dataDir
                    + ", " + PORT + "=" + port + ", " + STARTUP_TIMEOUT + "=" + timeout + "): " + e.getMessage(), e);
        }
    }

    private static boolean sourcesConfigured(ConfigSourceContext context) {
        Iterator<String> names = context.iterateNames();
        while (names.hasNext()) {
            String name = names.next();
            boolean sourceUrl = (name.startsWith("sqlagent.sources.") && name.endsWith(".url"))
                    || (name.startsWith("SQLAGENT_SOURCES_") && name.endsWith("_URL"));
            if (sourceUrl && !isBlank(context.getValue(name))) {
                return true;
            }
        }
        return false;
    }

    private static boolean bool(ConfigSourceContext context, String name, boolean defaultValue) {
        String value = value(context, name, Boolean.toString(defaultValue)).trim();
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(name + " must be true or false, not '" + value + "'");
        }
        return Boolean.parseBoolean(value);
    }

    private static String value(ConfigSourceContext context, String name, String defaultValue) {
        ConfigValue value = context.getValue(name);
        return isBlank(value) ? defaultValue : value.getValue();
    }

    private static boolean isBlank(ConfigValue value) {
        return value == null || value.getValue() == null || value.getValue().isBlank();
    }
}
