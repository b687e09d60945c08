package io.sqlagent.security;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.SnakeCaseJson;
import io.vertx.ext.web.RoutingContext;

/**
 * Turns the request's {@link SecurityIdentity} (built by the authentication mechanisms) into a
 * {@link Caller}: its principal name, its roles as scopes, and the claims or API-key attributes a
 * database role may be read from. While {@code sqlagent.auth.mode} is {@code none}, the anonymous
 * identity is the unrestricted {@link Caller#anonymous()} caller; with authentication on, an
 * anonymous identity holds no scope at all.
 */
@ApplicationScoped
public class CallerResolver {

    /** The identity attribute under which API-key identities carry their attributes ({@code Map<String,String>}). */
    public static final String ATTRIBUTES = "sqlagent.attributes";

    private final boolean authenticationOff;
    private final IdentityProviderManager identities;

    CallerResolver(@ConfigProperty(name = "sqlagent.auth.mode", defaultValue = "none") String mode,
            IdentityProviderManager identities) {
        this.authenticationOff = "none".equals(mode.strip().toLowerCase(Locale.ROOT));
        this.identities = identities;
    }

    /** The caller of this identity ({@code null}: nobody authenticated). */
    public Caller of(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            return authenticationOff ? Caller.anonymous() : Caller.unauthenticated();
        }
        Map<String, String> attributes = new HashMap<>();
        if (identity.getAttribute(ATTRIBUTES) instanceof Map<?, ?> given) {
            given.forEach((key, value) -> {
                if (key != null && value != null) {
                    attributes.put(key.toString(), value.toString());
                }
            });
        }
        if (identity.getPrincipal() instanceof JsonWebToken token) {
            if (token.getClaimNames() != null) {
                for (String claim : token.getClaimNames()) {
                    String text = text(token.getClaim(claim));
                    if (text != null) {
                        attributes.put(claim, text);
                    }
                }
            }
            Optional<String> id = oidcPrincipal(token);
            if (id.isEmpty()) {
                return Caller.unauthenticated();
            }
            return Caller.of(id.get(), identity.getRoles(), attributes);
        }
        // Every other identity comes from this service's own mechanisms (API keys: key:<key id>).
        Object alias = identity.getAttribute(ApiKeyIdentityProvider.ALIAS);
        return new Caller(identity.getPrincipal().getName(), identity.getRoles(), false, attributes,
                alias == null ? null : alias.toString());
    }

    /**
     * The principal id of a token: {@code oidc:<iss>#<sub>}. The subject is unique and never
     * reassigned within its issuer (OpenID Connect Core 5.7), and the issuer (a URL without a
     * fragment, so without {@code #}) keeps two providers' subjects apart; the user's chosen names
     * ({@code preferred_username}, {@code upn}, {@code email}) are never part of it, and the prefix
     * keeps every token apart from API keys ({@code key:}) and the service ({@code internal:}). A
     * token without a subject names nobody: it is answered as unauthenticated.
     */
    static Optional<String> oidcPrincipal(JsonWebToken token) {
        String subject = text(token.getClaim("sub"));
        if (subject == null || subject.isEmpty()) {
            return Optional.empty();
        }
        String issuer = text(token.getClaim("iss"));
        return Optional.of(Caller.OIDC + (issuer == null ? "" : issuer) + "#" + subject);
    }

    /**
     * The caller of an HTTP request (REST or MCP): the identity proactive authentication put on
     * it, or the one it resolves to on demand.
     */
    public Uni<Caller> of(RoutingContext request) {
        if (request == null) {
            return Uni.createFrom().item(of((SecurityIdentity) null));
        }
        if (request.user() instanceof QuarkusHttpUser user) {
            return Uni.createFrom().item(of(user.getSecurityIdentity()));
        }
        if (request.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY) == null) {
            return Uni.createFrom().item(of((SecurityIdentity) null));
        }
        return QuarkusHttpUser.getSecurityIdentity(request, identities).map(this::of);
    }

    /**
     * The caller of an HTTP request whose authentication has run (Quarkus authenticates proactively,
     * before any endpoint, so an authenticated request carries its identity); for code that cannot wait.
     */
    public Caller authenticated(RoutingContext request) {
        if (request != null && request.user() instanceof QuarkusHttpUser user) {
            return of(user.getSecurityIdentity());
        }
        return of((SecurityIdentity) null);
    }

    /**
     * A claim's value as text when it is one: a plain string, a number or a boolean. Custom claims
     * come as JSON-P values, whose {@code toString()} is their JSON text; reading that back through
     * Jackson keeps this class free of a JSON-P dependency.
     */
    private static String text(Object value) {
        if (value instanceof String string) {
            return string;
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value == null) {
            return null;
        }
        String json = value.toString();
        if (json.length() < 2 || json.charAt(0) != '"') {
            return null;
        }
        try {
            return SnakeCaseJson.MAPPER.readTree(json).asText();
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
