package io.sqlagent.agent.rest;

import java.util.Optional;
import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import io.smallrye.mutiny.Uni;
import io.sqlagent.agent.conversation.ConversationCursor;
import io.sqlagent.agent.conversation.ConversationStore;
import io.sqlagent.http.ApiException;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.http.Uuids;
import io.sqlagent.security.CallerResolver;
import io.sqlagent.store.BoundedStoreCalls;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/conversations}: the caller's own conversations, newest first, in pages; and
 * {@code GET /api/conversations/{id}}: one of them, its messages and runs as stored. Another
 * principal's conversation is answered as not found, never as forbidden, so ids reveal nothing.
 */
@Path("/api/conversations")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Chat")
public class ConversationResource {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    private final ConversationStore conversations;
    private final CallerResolver callers;
    private final BoundedStoreCalls store;

    ConversationResource(ConversationStore conversations, CallerResolver callers, BoundedStoreCalls store) {
        this.conversations = conversations;
        this.callers = callers;
        this.store = store;
    }

    @GET
    @Operation(summary = "List my conversations", description = "{items:[{id, title, created_at, updated_at}], next}: the caller's conversations, "
            + "newest updated_at first; title is the first question (80 characters at most). Pass next as before for the following page; "
            + "next is null on the last page.")
    @APIResponse(responseCode = "200", description = "One page of conversations")
    @APIResponse(responseCode = "400", description = "limit outside 1..100, or a before that is not a cursor this service gave out", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> list(
            @Parameter(description = "conversations per page, 1..100 (default 20)") @QueryParam("limit") String limit,
            @Parameter(description = "the next cursor of the previous page") @QueryParam("before") String before,
            @Context RoutingContext http) {
        int size;
        try {
            size = limit == null ? DEFAULT_LIMIT : Integer.parseInt(limit.strip());
        } catch (NumberFormatException e) {
            size = -1;
        }
        if (size < 1 || size > MAX_LIMIT) {
            throw ApiException.badRequest("invalid_limit", "limit must be a whole number from 1 to " + MAX_LIMIT);
        }
        Optional<ConversationCursor> cursor = Optional.empty();
        if (before != null && !before.isEmpty()) {
            cursor = ConversationCursor.decode(before);
            if (cursor.isEmpty()) {
                throw ApiException.badRequest("invalid_cursor", "before must be the next value of a previous page, as given");
            }
        }
        int pageSize = size;
        Optional<ConversationCursor> from = cursor;
        return callers.of(http)
                .flatMap(caller -> store.read(conversations.list(caller.name(), pageSize, from)))
                .map(RestResponse::<Object> ok);
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a conversation", description = "{conversation_id, title, created_at, updated_at, messages:[{run_id, role: user|assistant|tool, content, "
            + "tool_calls?, tool_call_id?, tool_name?, outcome?, duration_ms?, created_at}], runs:[{run_id, question, "
            + "started_at, duration_ms, iterations, usage, outcome, error_code?}]}")
    @APIResponse(responseCode = "200", description = "The conversation")
    @APIResponse(responseCode = "400", description = "The id is not a UUID", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No conversation of the caller has this id", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "503", description = "The store database is out of reach or did not answer within sqlagent.store.timeout; retry after Retry-After seconds", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> get(@PathParam("id") String id, @Context RoutingContext http) {
        UUID uuid = Uuids.parse(id).orElseThrow(() -> ApiException.badRequest("invalid_conversation_id",
                "A conversation id is a UUID, as the conversation event gave it"));
        return callers.of(http)
                .flatMap(caller -> store.read(conversations.view(uuid, caller.name())))
                .map(found -> found
                        .<RestResponse<Object>> map(RestResponse::ok)
                        .orElseThrow(
                                () -> ApiException.notFound("conversation_not_found", "No conversation has the id " + uuid)));
    }
}
