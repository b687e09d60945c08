package io.sqlagent.security;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * An OIDC caller's roles become its scopes: the {@code scope} (or {@code scp}) claim as it is, plus
 * the scopes {@code sqlagent.auth.oidc.role-scopes} grants each value of the
 * {@code sqlagent.auth.oidc.roles-claim} claim. Nothing else: the provider's own role names are not
 * scopes unless mapped. The principal stays the token ({@link JsonWebToken}).
 */
@ApplicationScoped
public class OidcScopes implements SecurityIdentityAugmentor {

    private final AuthConfig config;

    OidcScopes(AuthConfig config) {
        this.config = config;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Uni.createFrom().item(identity);
        }
        QuarkusSecurityIdentity.Builder builder = QuarkusSecurityIdentity.builder()
                .setPrincipal(token)
                .addCredentials(identity.getCredentials())
                .addAttributes(identity.getAttributes())
                .addRoles(scopes(token));
        return Uni.createFrom().item(builder.build());
    }

    Set<String> scopes(JsonWebToken token) {
        Set<String> scopes = new LinkedHashSet<>();
        // "scope" (RFC 9068, Keycloak, Auth0, oidc-provider) or "scp" (Entra ID, Okta): space-separated or a list.
        for (String claim : List.of("scope", "scp")) {
            for (String value : values(token.getClaim(claim))) {
                for (String one : value.split(" ")) {
                    if (!one.isBlank()) {
                        scopes.add(one);
                    }
                }
            }
        }
        for (String role : values(token.getClaim(config.oidc().rolesClaim()))) {
            scopes.addAll(config.oidc().roleScopes().getOrDefault(role, List.of()));
        }
        return scopes;
    }

    /** A claim's values: a JSON array of strings, a collection, or one string. */
    private static List<String> values(Object claim) {
        if (claim == null) {
            return List.of();
        }
        if (claim instanceof jakarta.json.JsonArray array) {
            return array.stream().map(OidcScopes::text).toList();
        }
        if (claim instanceof Collection<?> collection) {
            return collection.stream().map(OidcScopes::text).toList();
        }
        return List.of(text(claim));
    }

    private static String text(Object value) {
        if (value instanceof jakarta.json.JsonString string) {
            return string.getString();
        }
        return String.valueOf(value);
    }
}
