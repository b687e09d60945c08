package io.sqlagent.security.rest;

import java.net.URI;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response.Status;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import io.sqlagent.http.ErrorBody;
import io.sqlagent.security.AuthConfig;

/**
 * {@code GET /login}: the browser page's way in. With OIDC on, quarkus-oidc's authorization-code
 * flow runs before this method (a browser without a session is sent to the provider and back); by
 * the time it runs the session cookie is set, and the browser goes on to the page at {@code /}.
 */
@Path("/login")
@Tag(name = "Access")
public class LoginResource {

    private final AuthConfig config;

    LoginResource(AuthConfig config) {
        this.config = config;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Log in with the OIDC provider (browser)", description = "Redirects to the provider, then to /. 404 login_not_enabled without OIDC.")
    public RestResponse<Object> login() {
        if (!config.oidcEnabled()) {
            return RestResponse.status(Status.NOT_FOUND, ErrorBody.of("login_not_enabled",
                    "There is no login: sqlagent.auth.mode does not name oidc"
                            + (config.apiKeys() ? "; send an API key as Authorization: Bearer <key>" : "")));
        }
        return RestResponse.seeOther(URI.create("/"));
    }
}
