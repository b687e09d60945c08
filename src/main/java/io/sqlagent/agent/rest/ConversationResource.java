package io.sqlagent.agent.rest;

import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import io.smallrye.mutiny.Uni;
import io.sqlagent.agent.ConversationStore;
import io.sqlagent.rest.ApiException;
import io.sqlagent.rest.ErrorBody;
import io.sqlagent.rest.Uuids;
import io.sqlagent.store.StoreCalls;

/** {@code GET /api/conversations/{id}}: a conversation's messages and runs, as stored. */
@Path("/api/conversations")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Chat")
public class ConversationResource {

    private final ConversationStore conversations;
    private final StoreCalls store;

    ConversationResource(ConversationStore conversations, StoreCalls store) {
        this.conversations = conversations;
        this.store = store;
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a conversation", description = "{conversation_id, title, created_at, updated_at, messages:[{run_id, role: user|assistant|tool, content, "
            + "tool_calls?, tool_call_id?, tool_name?, outcome?, duration_ms?, created_at}], runs:[{run_id, question, "
            + "started_at, duration_ms, iterations, usage, outcome, error_code?}]}")
    @APIResponse(responseCode = "200", description = "The conversation")
    @APIResponse(responseCode = "400", description = "The id is not a UUID", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No conversation has this id", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "503", description = "The store database is out of reach or did not answer within sqlagent.store.timeout; retry after Retry-After seconds", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> get(@PathParam("id") String id) {
        UUID uuid = Uuids.parse(id).orElseThrow(() -> ApiException.badRequest("invalid_conversation_id",
                "A conversation id is a UUID, as the conversation event gave it"));
        return store.lookup(conversations.view(uuid)).map(found -> found
                .<RestResponse<Object>> map(RestResponse::ok)
                .orElseThrow(() -> ApiException.notFound("conversation_not_found", "No conversation has the id " + uuid)));
    }
}
