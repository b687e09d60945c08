package io.sqlagent.security.rest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.sqlagent.security.AuthConfig;
import io.sqlagent.security.BearerChallenge;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /.well-known/oauth-protected-resource} (RFC 9728, which the MCP authorization
 * specification builds on): names the OIDC provider as the authorization server, so an MCP client
 * sent a 401 finds where to log in. Open to everyone, like all of {@code /.well-known}.
 */
@Path(BearerChallenge.METADATA_PATH)
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Access")
public class ProtectedResourceResource {

    private final AuthConfig config;
    private final Optional<String> issuer;
    private final Optional<String> authServerUrl;

    ProtectedResourceResource(AuthConfig config,
            @ConfigProperty(name = "quarkus.oidc.token.issuer") Optional<String> issuer,
            @ConfigProperty(name = "quarkus.oidc.auth-server-url") Optional<String> authServerUrl) {
        this.config = config;
        this.issuer = issuer.filter(value -> !value.isBlank() && !value.equals("any"));
        this.authServerUrl = authServerUrl.filter(value -> !value.isBlank());
    }

    @GET
    @Operation(summary = "OAuth protected resource metadata", description = "{resource, authorization_servers: [the OIDC issuer], bearer_methods_supported}")
    public Map<String, Object> metadata(@Context RoutingContext http) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("resource", BearerChallenge.baseUrl(http.request()));
        if (config.oidcEnabled()) {
            issuer.or(() -> authServerUrl).ifPresent(server -> metadata.put("authorization_servers", List.of(server)));
        }
        metadata.put("bearer_methods_supported", List.of("header"));
        metadata.put("resource_name", "sqlagent");
        return metadata;
    }
}
