package io.sqlagent.security;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * The policy of {@code GET /login}: with OIDC on, a browser without a session is sent to the
 * provider's login (the authorization-code flow, {@code auth-mechanism=code} in
 * application.properties); without OIDC the endpoint itself says that there is no login.
 */
@ApplicationScoped
public class LoginPolicy implements HttpSecurityPolicy {

    private final AuthConfig config;

    LoginPolicy(AuthConfig config) {
        this.config = config;
    }

    @Override
    public Uni<CheckResult> checkPermission(RoutingContext request, Uni<SecurityIdentity> identity,
            AuthorizationRequestContext requestContext) {
        if (!config.oidcEnabled()) {
            return CheckResult.permit();
        }
        return identity.map(caller -> caller.isAnonymous() ? CheckResult.DENY : CheckResult.PERMIT);
    }

    @Override
    public String name() {
        return "sqlagent-login";
    }
}
