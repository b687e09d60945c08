package io.sqlagent.security;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** Who may call the service and how they prove it ({@code sqlagent.auth.*}). */
@ConfigMapping(prefix = "sqlagent.auth")
public interface AuthConfig {

    /**
     * How callers authenticate: {@code none} (everyone is the anonymous caller; the laptop default,
     * the service listening on localhost), {@code api-key}, {@code oidc}, or both as
     * {@code api-key,oidc} (also written {@code both}).
     */
    @WithDefault("none")
    List<AuthMode> mode();

    /**
     * The first admin credential, sent as {@code Authorization: Bearer <key>}: it has scope
     * {@code admin} and creates the other keys. At least 16 characters, no {@code .}. Required in
     * {@code api-key} mode without OIDC; never has a default.
     */
    Optional<String> bootstrapKey();

    /** How OIDC tokens become scopes. */
    Oidc oidc();

    /** Whether API keys are accepted. */
    default boolean apiKeys() {
        return mode().contains(AuthMode.API_KEY) || mode().contains(AuthMode.BOTH);
    }

    /** Whether OIDC tokens (and the browser login) are accepted. */
    default boolean oidcEnabled() {
        return mode().contains(AuthMode.OIDC) || mode().contains(AuthMode.BOTH);
    }

    /** Whether a credential is needed at all (any mode but {@code none}). */
    default boolean required() {
        return apiKeys() || oidcEnabled();
    }

    /** The modes; {@code api-key,oidc} and {@code both} are the same. */
    enum AuthMode {
        NONE,
        API_KEY,
        OIDC,
        BOTH;
    }

    /** OIDC claims to scopes. */
    interface Oidc {

        /**
         * The token claim holding the caller's roles or groups (a list of strings, or one string);
         * each is mapped to scopes by {@link #roleScopes()}. Besides these, the space-separated
         * {@code scope} claim counts as it is.
         */
        @WithDefault("groups")
        String rolesClaim();

        /** Scopes each role of {@link #rolesClaim()} grants: {@code role-scopes."analysts"=sql:read,knowledge:read}. */
        @WithName("role-scopes")
        Map<String, List<String>> roleScopes();
    }
}
