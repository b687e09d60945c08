package io.sqlagent.security;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Test-only authentication (src/test, never packaged): a request with {@code X-Test-Principal}
 * is the identity it names, with the roles (scopes) of {@code X-Test-Scopes} (comma-separated) and
 * the {@code sqlagent.attributes} of {@code X-Test-Attributes} ({@code name=value;name=value}), as
 * an API key with attributes would be. Requests without the header stay anonymous, so every other
 * test runs as before. It builds the same {@link SecurityIdentity} shape the real mechanisms build,
 * so {@link CallerResolver} and everything after it run unchanged.
 */
@ApplicationScoped
public class TestIdentities implements HttpAuthenticationMechanism {

    public static final String PRINCIPAL = "X-Test-Principal";
    public static final String SCOPES = "X-Test-Scopes";
    public static final String ATTRIBUTES = "X-Test-Attributes";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String name = context.request().getHeader(PRINCIPAL);
        if (name == null || name.isBlank()) {
            return Uni.createFrom().nullItem();
        }
        Set<String> scopes = new LinkedHashSet<>();
        String scopeHeader = context.request().getHeader(SCOPES);
        if (scopeHeader != null) {
            Arrays.stream(scopeHeader.split(",")).map(String::strip).filter(s -> !s.isEmpty()).forEach(scopes::add);
        }
        Map<String, String> attributes = new HashMap<>();
        String attributeHeader = context.request().getHeader(ATTRIBUTES);
        if (attributeHeader != null) {
            for (String pair : attributeHeader.split(";")) {
                int equals = pair.indexOf('=');
                if (equals > 0) {
                    attributes.put(pair.substring(0, equals).strip(), pair.substring(equals + 1).strip());
                }
            }
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(name))
                .addRoles(scopes)
                .addAttribute(CallerResolver.ATTRIBUTES, Map.copyOf(attributes))
                .build());
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().nullItem();
    }

    /** The headers of a caller, for RestAssured and the SSE and MCP clients. */
    public static Map<String, String> headers(String principal, String scopes, String attributes) {
        Map<String, String> headers = new HashMap<>();
        headers.put(PRINCIPAL, principal);
        headers.put(SCOPES, scopes);
        if (attributes != null) {
            headers.put(ATTRIBUTES, attributes);
        }
        return headers;
    }
}
