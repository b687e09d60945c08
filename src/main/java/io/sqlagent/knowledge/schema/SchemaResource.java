package io.sqlagent.knowledge.schema;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response.Status;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.security.CallerResolver;
import io.sqlagent.tool.ToolScopes;
import io.vertx.ext.web.RoutingContext;

/** The schema search index of this replica: what it holds, and a rebuild on demand (after a migration, say). */
@Path("/api/schema")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Schema", description = "The schema search index behind search_schema")
public class SchemaResource {

    private final SchemaSearch search;
    private final CallerResolver callers;

    SchemaResource(SchemaSearch search, CallerResolver callers) {
        this.search = search;
        this.callers = callers;
    }

    @GET
    @Path("/index")
    @Operation(summary = "The schema index of this replica", description = "{source, state (not built, building, embedding, ready, failed), "
            + "tables, semantic, built_at, build_millis, embedding_millis, error}. Scope sql:read.")
    @APIResponse(responseCode = "200", description = "What the index holds")
    @APIResponse(responseCode = "403", description = "The caller lacks scope sql:read", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> index(@Context RoutingContext http) {
        return callers.of(http).map(caller -> caller.has(ToolScopes.SQL_READ)
                ? RestResponse.ok((Object) search.status())
                : forbidden(caller, ToolScopes.SQL_READ, "Reading"));
    }

    @POST
    @Path("/refresh")
    @Operation(summary = "Rebuild the schema index from the catalog", description = "Starts a rebuild in the background (or joins the one "
            + "under way) and answers at once with the index's status; searches use the current index until the new one is in. Scope admin.")
    @APIResponse(responseCode = "202", description = "The rebuild is under way")
    @APIResponse(responseCode = "403", description = "The caller lacks scope admin", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> refresh(@Context RoutingContext http) {
        return callers.of(http).map(caller -> {
            if (!caller.has(Caller.ADMIN)) {
                return forbidden(caller, Caller.ADMIN, "Rebuilding");
            }
            search.refresh();
            return RestResponse.status(Status.ACCEPTED, (Object) search.status());
        });
    }

    private static RestResponse<Object> forbidden(Caller caller, String scope, String what) {
        return RestResponse.status(Status.FORBIDDEN, ErrorBody.of("forbidden",
                what + " the schema index needs scope '" + scope + "', which caller '" + caller.name() + "' does not have"));
    }
}
