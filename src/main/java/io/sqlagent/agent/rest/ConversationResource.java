package io.sqlagent.agent.rest;

import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response.Status;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import io.smallrye.mutiny.Uni;
import io.sqlagent.agent.ConversationStore;
import io.sqlagent.tool.rest.ErrorBody;

/** {@code GET /api/conversations/{id}}: a conversation's messages and runs, as stored. */
@Path("/api/conversations")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Chat")
public class ConversationResource {

    private final ConversationStore conversations;

    ConversationResource(ConversationStore conversations) {
        this.conversations = conversations;
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a conversation", description = "{conversation_id, title, created_at, updated_at, messages:[{run_id, role: user|assistant|tool, content, "
            + "tool_calls?, tool_call_id?, tool_name?, outcome?, duration_ms?, created_at}], runs:[{run_id, question, "
            + "started_at, duration_ms, iterations, usage, outcome, error_code?}]}")
    @APIResponse(responseCode = "200", description = "The conversation")
    @APIResponse(responseCode = "400", description = "The id is not a UUID", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No conversation has this id", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> get(@PathParam("id") String id) {
        UUID uuid;
        try {
            if (id.length() != 36) {
                throw new IllegalArgumentException();
            }
            uuid = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().item(RestResponse.status(Status.BAD_REQUEST,
                    ErrorBody.of("invalid_conversation_id", "A conversation id is a UUID, as the conversation event gave it")));
        }
        return conversations.view(uuid).map(found -> found
                .<RestResponse<Object>> map(RestResponse::ok)
                .orElseGet(() -> RestResponse.status(Status.NOT_FOUND,
                        ErrorBody.of("conversation_not_found", "No conversation has the id " + uuid))));
    }
}
