package io.sqlagent.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.logging.Log;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * What a caller without a valid credential is told: 401 with
 * {@code WWW-Authenticate: Bearer realm="sqlagent", resource_metadata="…/.well-known/oauth-protected-resource"},
 * as the MCP authorization specification (RFC 9728) asks, so MCP clients find the authorization
 * server with no glue; {@code error="invalid_token"} when a credential was sent. Every 401 gets this
 * header whichever mechanism refused (quarkus-oidc's own challenge does not name the metadata).
 */
@ApplicationScoped
public class BearerChallenge {

    public static final String METADATA_PATH = "/.well-known/oauth-protected-resource";
    static final String WWW_AUTHENTICATE = "WWW-Authenticate";
    /** After the edge checks (400), before authentication: it only adds a hook for the answer's head. */
    static final int PRIORITY = 390;

    void register(@Observes Filters filters) {
        filters.register(ctx -> {
            ctx.addHeadersEndHandler(v -> {
                if (ctx.response().getStatusCode() == 401) {
                    ctx.response().headers().set(BearerChallenge.WWW_AUTHENTICATE, header(ctx));
                }
            });
            ctx.next();
        }, PRIORITY);
    }

    /**
     * A credential that a mechanism refused (quarkus-oidc: a bad token) ends here rather than in that
     * mechanism's own challenge, which has no body: the service's 401, as for a missing credential.
     * The browser login's failures stay quarkus-oidc's. (The Quarkus guide's way to shape an
     * authentication failure while authentication is proactive.)
     */
    void failures(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(ctx -> {
            CredentialCheckUnavailable unavailable = cause(ctx.failure(), CredentialCheckUnavailable.class);
            if (unavailable != null && !ctx.response().headWritten()) {
                Log.warn(unavailable.getMessage());
                ctx.response().putHeader("Retry-After", "5");
                ApiKeyMechanism.sendError(ctx, 503, "store_unavailable",
                        "The credential could not be checked: the store does not answer; try again in a moment");
            } else if (ctx.failure() instanceof AuthenticationFailedException && !ctx.response().headWritten()
                    && !ctx.request().path().equals("/login")) {
                ApiKeyMechanism.sendUnauthorized(ctx);
            } else {
                ctx.next();
            }
        });
    }

    private static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
        for (Throwable at = failure; at != null; at = at.getCause() == at ? null : at.getCause()) {
            if (type.isInstance(at)) {
                return type.cast(at);
            }
        }
        return null;
    }

    /** The header's value for this request. */
    static String header(RoutingContext ctx) {
        String value = "Bearer realm=\"sqlagent\", resource_metadata=\"" + baseUrl(ctx.request()) + METADATA_PATH + "\"";
        if (ctx.request().getHeader(HttpHeaders.AUTHORIZATION) != null) {
            value += ", error=\"invalid_token\", error_description=\"The credential is unknown, revoked, expired or not for this service\"";
        }
        return value;
    }

    /** The service's URL as the caller reached it (behind a proxy: with quarkus.http.proxy.* forwarding on). */
    public static String baseUrl(HttpServerRequest request) {
        String host = request.authority() == null ? "localhost" : request.authority().toString();
        return request.scheme() + "://" + host;
    }
}
