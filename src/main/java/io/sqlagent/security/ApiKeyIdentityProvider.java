package io.sqlagent.security;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.logging.Log;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;

/**
 * Turns an API key into the caller: principal {@code key:<key id>} (the 12 hex digits the key
 * carries, so a key deleted and created again under the same name is another principal, which
 * owns nothing of the first), roles = the key's scopes, attribute {@value #ATTRIBUTES} = the key's
 * attributes, attribute {@value #ALIAS} = {@code key:<name>}, which settings such as per-principal
 * limits may use. The bootstrap key is {@code key:bootstrap} (not hex, so no stored key's id) with
 * scope {@code admin}. Every request reads the store, so a deleted key is refused at once.
 */
@ApplicationScoped
public class ApiKeyIdentityProvider implements IdentityProvider<ApiKeyAuthenticationRequest> {

    /** The identity attribute holding an API key's attributes, a {@code Map<String, String>}. */
    public static final String ATTRIBUTES = "sqlagent.attributes";
    /** The identity attribute holding the name settings may use for the key, {@code key:<name>}. */
    public static final String ALIAS = "sqlagent.alias";
    /** The name the bootstrap key has; no stored key may take it. */
    public static final String BOOTSTRAP_NAME = "bootstrap";

    private final ApiKeyStore keys;
    private final Optional<byte[]> bootstrapHash;

    ApiKeyIdentityProvider(ApiKeyStore keys, AuthConfig config) {
        this.keys = keys;
        this.bootstrapHash = config.bootstrapKey().map(ApiKeys::sha256);
    }

    @Override
    public Class<ApiKeyAuthenticationRequest> getRequestType() {
        return ApiKeyAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(ApiKeyAuthenticationRequest request, AuthenticationRequestContext context) {
        String presented = request.key();
        if (bootstrapHash.isPresent() && ApiKeys.sameSecret(presented, bootstrapHash.get())) {
            return Uni.createFrom().item(identity(BOOTSTRAP_NAME, BOOTSTRAP_NAME, Set.of("admin"), Map.of()));
        }
        Optional<ApiKeys.Parsed> parsed = ApiKeys.parse(presented);
        if (parsed.isEmpty()) {
            return refused();
        }
        return keys.find(parsed.get().keyId())
                .onFailure().transform(CredentialCheckUnavailable::new)
                .flatMap(found -> {
                    if (found.isEmpty() || !ApiKeys.sameSecret(parsed.get().secret(), found.get().secretHash())) {
                        return refused();
                    }
                    ApiKeyStore.StoredKey key = found.get().key();
                    return keys.touch(key.name())
                            .onFailure().recoverWithNull()
                            .replaceWith(identity(parsed.get().keyId(), key.name(), Set.copyOf(key.scopes()),
                                    key.attributes()));
                });
    }

    private static Uni<SecurityIdentity> refused() {
        Log.debug("An unknown or revoked API key was refused");
        return Uni.createFrom().failure(new AuthenticationFailedException("unknown or revoked API key"));
    }

    private static SecurityIdentity identity(String keyId, String name, Set<String> scopes, Map<String, String> attributes) {
        return QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(Caller.KEY + keyId))
                .addAttribute(ALIAS, Caller.KEY + name)
                .addRoles(scopes)
                .addAttribute(ATTRIBUTES, Map.copyOf(attributes))
                .build();
    }
}
