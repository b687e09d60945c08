package io.sqlagent.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.sqlagent.Caller;

/** From the request's identity to a {@link Caller}: principal, scopes and the claims a database role is read from. */
class CallerResolverTest {

    /** A token as OIDC identities carry it; custom claims come as JSON values whose text is JSON. */
    private record Token(String name, Map<String, Object> claims) implements JsonWebToken {
        @Override
        public String getName() {
            return name;
        }

        @Override
        public Set<String> getClaimNames() {
            return claims.keySet();
        }

        @SuppressWarnings("unchecked")
        @Override
        public <T> T getClaim(String claimName) {
            return (T) claims.get(claimName);
        }
    }

    /** Stands for a JSON-P string value: its toString() is its JSON text, quotes included. */
    private record JsonText(String json) {
        @Override
        public String toString() {
            return json;
        }
    }

    @Test
    void anOidcIdentityGivesItsNameScopesAndTextClaims() {
        CallerResolver callers = new CallerResolver("api-key,oidc", null);
        var token = new Token("ada", Map.of("iss", "https://idp.example/realms/a", "sub", "f00d",
                "preferred_username", "ada", "pg_role", new JsonText("\"support_rep_3\""),
                "groups", new JsonText("[\"staff\"]"), "level", 3));

        Caller caller = callers.of(QuarkusSecurityIdentity.builder().setPrincipal(token).addRoles(Set.of("sql:read")).build());

        assertEquals("oidc:https://idp.example/realms/a#f00d", caller.name());
        assertEquals(Set.of("sql:read"), caller.scopes());
        assertFalse(caller.unrestricted());
        assertEquals(Optional.of("support_rep_3"), caller.attribute("pg_role"));
        assertEquals(Optional.of("3"), caller.attribute("level"));
        assertEquals(Optional.empty(), caller.attribute("groups"), "a list is no role name");
    }

    @Test
    void noTokenCanNameAnApiKeyAnInternalPrincipalOrAnotherIssuersUser() {
        CallerResolver callers = new CallerResolver("api-key,oidc", null);
        for (String forged : new String[] { "key:0123456789ab", "key:bootstrap", "internal:eval", "eval", "anonymous",
                "oidc:https://idp.example/realms/a#f00d" }) {
            var token = new Token(forged, Map.of("iss", "https://evil.example", "sub", forged, "preferred_username", forged,
                    "upn", forged));
            Caller caller = callers.of(QuarkusSecurityIdentity.builder().setPrincipal(token).build());
            assertEquals("oidc:https://evil.example#" + forged, caller.name());
        }
        // The same subject from two issuers is two principals.
        var one = callers.of(QuarkusSecurityIdentity.builder()
                .setPrincipal(new Token("x", Map.of("iss", "https://one.example", "sub", "7"))).build());
        var two = callers.of(QuarkusSecurityIdentity.builder()
                .setPrincipal(new Token("x", Map.of("iss", "https://two.example", "sub", "7"))).build());
        assertFalse(one.name().equals(two.name()), one.name());
    }

    @Test
    void aTokenWithoutASubjectNamesNobody() {
        CallerResolver callers = new CallerResolver("api-key,oidc", null);
        var token = new Token("ada", Map.of("iss", "https://idp.example", "preferred_username", "ada"));

        Caller caller = callers.of(QuarkusSecurityIdentity.builder().setPrincipal(token).addRole("admin").build());

        assertEquals(Caller.ANONYMOUS, caller.name());
        assertFalse(caller.has("admin"));
        assertFalse(caller.unrestricted());
    }

    @Test
    void anApiKeyIsItsKeyIdAndSettingsMayNameItByItsName() {
        CallerResolver callers = new CallerResolver("api-key", null);
        Caller caller = callers.of(QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("key:0123456789ab"))
                .addAttribute(ApiKeyIdentityProvider.ALIAS, "key:ci").build());

        assertEquals("key:0123456789ab", caller.name());
        assertEquals("key:ci", caller.alias());
    }

    @Test
    void anApiKeyIdentityGivesItsAttributes() {
        CallerResolver callers = new CallerResolver("api-key", null);
        Caller caller = callers.of(QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("key:ci"))
                .addRole("knowledge:read").addAttribute(CallerResolver.ATTRIBUTES, Map.of("pg_role", "support_rep_4")).build());

        assertEquals("key:ci", caller.name());
        assertEquals(Optional.of("support_rep_4"), caller.attribute("pg_role"));
        assertTrue(caller.has("knowledge:read"));
        assertFalse(caller.has("sql:read"));
    }

    @Test
    void nobodyIsAnonymousWithEveryScopeOnlyWhileAuthenticationIsOff() {
        Caller off = new CallerResolver("none", null).of((io.quarkus.security.identity.SecurityIdentity) null);
        assertEquals("anonymous", off.name());
        assertTrue(off.unrestricted());
        assertTrue(off.has("admin"));

        Caller on = new CallerResolver("oidc", null).of(QuarkusSecurityIdentity.builder().setAnonymous(true).build());
        assertEquals("anonymous", on.name());
        assertFalse(on.unrestricted());
        assertFalse(on.has("sql:read"));
    }
}
