package io.sqlagent.security;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * The policy of {@code /api/*} and {@code /mcp/*} ({@code quarkus.http.auth.permission.api} in
 * application.properties): in mode {@code none} everyone passes; otherwise a caller without a
 * valid credential is refused with 401 (the challenge). Named, because the mode is runtime
 * configuration and Quarkus's built-in {@code authenticated} policy cannot be switched off by it.
 * Which scope a caller needs for what is decided further in, per tool and endpoint.
 */
@ApplicationScoped
public class CredentialPolicy implements HttpSecurityPolicy {

    static final String NAME = "sqlagent-credential";

    private final AuthConfig config;

    CredentialPolicy(AuthConfig config) {
        this.config = config;
    }

    @Override
    public Uni<CheckResult> checkPermission(RoutingContext request, Uni<SecurityIdentity> identity,
            AuthorizationRequestContext requestContext) {
        if (!config.required()) {
            return CheckResult.permit();
        }
        return identity.map(caller -> caller.isAnonymous() ? CheckResult.DENY : CheckResult.PERMIT);
    }

    @Override
    public String name() {
        return NAME;
    }
}
