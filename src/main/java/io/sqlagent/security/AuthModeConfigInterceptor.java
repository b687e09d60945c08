package io.sqlagent.security;

import java.util.Locale;

import jakarta.annotation.Priority;

import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.Priorities;

/**
 * Keeps quarkus-oidc inert unless {@code sqlagent.auth.mode} names {@code oidc}: its default tenant
 * ({@code quarkus.oidc.tenant-enabled}) follows the mode when it is not set itself, so in modes
 * {@code none} and {@code api-key} the service starts with no OIDC server and no OIDC setting, and
 * an operator turns OIDC on with the one setting. A config interceptor, because the value derives
 * from another property and quarkus-oidc reads its own.
 */
@Priority(Priorities.APPLICATION)
public class AuthModeConfigInterceptor implements ConfigSourceInterceptor {

    static final String TENANT_ENABLED = "quarkus.oidc.tenant-enabled";
    private static final String MODE = "sqlagent.auth.mode";

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        // quarkus-oidc's own default (true) comes from a defaults source with a negative ordinal:
        // only a value someone set wins over the mode.
        if (!TENANT_ENABLED.equals(name) || (value != null && value.getConfigSourceOrdinal() >= 0)) {
            return value;
        }
        ConfigValue mode = context.proceed(MODE);
        return ConfigValue.builder()
                .withName(name)
                .withValue(String.valueOf(mode != null && namesOidc(mode.getValue())))
                .withConfigSourceName("derived from " + MODE)
                .build();
    }

    static boolean namesOidc(String mode) {
        if (mode == null) {
            return false;
        }
        for (String part : mode.split(",")) {
            String name = part.strip().toLowerCase(Locale.ROOT);
            if (name.equals("oidc") || name.equals("both")) {
                return true;
            }
        }
        return false;
    }
}
