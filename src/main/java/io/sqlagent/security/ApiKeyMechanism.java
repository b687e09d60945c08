package io.sqlagent.security;

import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.http.ErrorBody;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * Reads {@code Authorization: Bearer <key>} when API keys are on. With OIDC on too, a bearer
 * token shaped like a JWT (it has dots) is left to quarkus-oidc and everything else is taken as a
 * key. Its challenge (it runs first, by priority) is the service's 401: the house error body and the
 * {@link BearerChallenge} header.
 */
@ApplicationScoped
public class ApiKeyMechanism implements HttpAuthenticationMechanism {

    private static final String BEARER = "bearer ";

    private final AuthConfig config;

    ApiKeyMechanism(AuthConfig config) {
        this.config = config;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        if (!config.apiKeys()) {
            return Uni.createFrom().nullItem();
        }
        String token = bearerToken(context);
        if (token == null || (config.oidcEnabled() && !ApiKeys.looksLikeKey(token) && token.indexOf('.') >= 0)) {
            return Uni.createFrom().nullItem();
        }
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(new ApiKeyAuthenticationRequest(token),
                context));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, BearerChallenge.WWW_AUTHENTICATE, BearerChallenge.header(context)));
    }

    @Override
    public Uni<Boolean> sendChallenge(RoutingContext context) {
        sendUnauthorized(context);
        return Uni.createFrom().item(true);
    }

    /** 401 with the house error body and the {@link BearerChallenge} header. */
    static void sendUnauthorized(RoutingContext context) {
        if (context.response().headWritten()) {
            return;
        }
        String message = context.request().getHeader(HttpHeaders.AUTHORIZATION) == null
                ? "This endpoint needs a credential: send Authorization: Bearer <API key or OIDC access token>"
                : "The credential was refused: it is unknown, revoked, expired or not issued for this service";
        context.response().putHeader(BearerChallenge.WWW_AUTHENTICATE, BearerChallenge.header(context));
        sendError(context, 401, "unauthorized", message);
    }

    /** An answer with the house error body. */
    static void sendError(RoutingContext context, int status, String code, String message) {
        if (context.response().headWritten()) {
            return;
        }
        byte[] body;
        try {
            body = SnakeCaseJson.MAPPER.writeValueAsBytes(ErrorBody.of(code, message));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        context.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(io.vertx.core.buffer.Buffer.buffer(body));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(ApiKeyAuthenticationRequest.class);
    }

    @Override
    public int getPriority() {
        // Before quarkus-oidc (1001), so a key never reaches OIDC token verification.
        return 2000;
    }

    private static String bearerToken(RoutingContext context) {
        String header = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || header.length() <= BEARER.length()
                || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        return header.substring(BEARER.length()).strip();
    }
}
