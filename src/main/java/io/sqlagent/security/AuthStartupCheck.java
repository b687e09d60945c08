package io.sqlagent.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;

/**
 * Authentication settings the service cannot run safely with stop the start with a message naming
 * the setting; an open service reachable from the network is started, with a warning.
 */
@ApplicationScoped
public class AuthStartupCheck {

    static final int MIN_BOOTSTRAP_LENGTH = 16;

    private final AuthConfig config;
    private final String bindHost;
    private final Optional<String> authServerUrl;

    AuthStartupCheck(AuthConfig config,
            @ConfigProperty(name = "quarkus.http.host", defaultValue = "0.0.0.0") String bindHost,
            @ConfigProperty(name = "quarkus.oidc.auth-server-url") Optional<String> authServerUrl) {
        this.config = config;
        this.bindHost = bindHost;
        this.authServerUrl = authServerUrl;
    }

    void checkOnStart(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) {
        check();
        if (!config.required() && !isLoopback(bindHost)) {
            Log.warnf("Authentication is off (sqlagent.auth.mode=none) and the service listens on %s, beyond localhost: "
                    + "anyone who reaches the port can run every tool. Set sqlagent.auth.mode (SQLAGENT_AUTH_MODE) to "
                    + "api-key, oidc or api-key,oidc; see docs/security.md", bindHost);
        }
    }

    /** Throws, naming the setting, when the settings cannot be run with. */
    void check() {
        if (config.mode().contains(AuthConfig.AuthMode.NONE) && config.mode().size() > 1) {
            throw new IllegalStateException("sqlagent.auth.mode=" + config.mode()
                    + ": 'none' cannot be combined with another mode; use none, api-key, oidc or api-key,oidc");
        }
        config.bootstrapKey().ifPresent(key -> {
            if (key.strip().length() < MIN_BOOTSTRAP_LENGTH || key.contains(".") || !key.equals(key.strip())) {
                throw new IllegalStateException("sqlagent.auth.bootstrap-key must be at least " + MIN_BOOTSTRAP_LENGTH
                        + " characters without '.' or surrounding blanks (for example: openssl rand -hex 32)");
            }
        });
        if (config.apiKeys() && !config.oidcEnabled() && config.bootstrapKey().isEmpty()) {
            throw new IllegalStateException("sqlagent.auth.mode=api-key needs a first admin credential: set "
                    + "sqlagent.auth.bootstrap-key (SQLAGENT_AUTH_BOOTSTRAP_KEY, at least " + MIN_BOOTSTRAP_LENGTH
                    + " characters, for example from openssl rand -hex 32), or turn on OIDC (sqlagent.auth.mode=api-key,oidc)");
        }
        if (config.oidcEnabled() && authServerUrl.filter(url -> !url.isBlank()).isEmpty()) {
            throw new IllegalStateException("sqlagent.auth.mode names oidc but no provider is configured: set "
                    + "quarkus.oidc.auth-server-url (QUARKUS_OIDC_AUTH_SERVER_URL), the issuer URL of your OpenID Connect "
                    + "provider, and quarkus.oidc.client-id");
        }
    }

    static boolean isLoopback(String host) {
        String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            return InetAddress.getByName(name).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
