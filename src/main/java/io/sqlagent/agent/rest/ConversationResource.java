package io.sqlagent.agent.rest;

import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.agent.ConversationStore;
import io.sqlagent.rest.ApiException;
import io.sqlagent.rest.ErrorBody;
import io.sqlagent.rest.Uuids;
import io.sqlagent.store.StoreCalls;
import io.sqlagent.tool.ToolJson;

/** {@code GET /api/conversations}: the conversations, newest first; {@code GET /api/conversations/{id}}: one, as stored. */
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
    @Operation(summary = "List conversations", description = "{items:[{id, title, created_at, updated_at}], next}: newest first; "
            + "pass next as before for the following page (next is null on the last page)")
    @APIResponse(responseCode = "200", description = "A page of conversations")
    @APIResponse(responseCode = "400", description = "limit outside 1..100, or a before that is not a cursor this service gave", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<ObjectNode> list(@QueryParam("limit") String limit, @QueryParam("before") String before) {
        int size = pageSize(limit);
        Optional<ConversationStore.Summary> after = before == null || before.isBlank() ? Optional.empty()
                : Optional.of(cursor(before));
        return store.lookup(conversations.list(size + 1, after)).map(found -> {
            ObjectNode page = ToolJson.MAPPER.createObjectNode();
            ArrayNode items = page.putArray("items");
            found.stream().limit(size).forEach(c -> items.addObject().put("id", c.id().toString()).put("title", c.title())
                    .put("created_at", c.createdAt().toString()).put("updated_at", c.updatedAt().toString()));
            if (found.size() > size) {
                ConversationStore.Summary last = found.get(size - 1);
                page.put("next", Base64.getUrlEncoder().withoutPadding()
                        .encodeToString((last.updatedAt() + " " + last.id()).getBytes(StandardCharsets.UTF_8)));
            } else {
                page.putNull("next");
            }
            return page;
        });
    }

    private static int pageSize(String limit) {
        if (limit == null || limit.isBlank()) {
            return 20;
        }
        try {
            int size = Integer.parseInt(limit.strip());
            if (size >= 1 && size <= 100) {
                return size;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest("invalid_limit", "limit must be a whole number from 1 to 100");
    }

    private static ConversationStore.Summary cursor(String before) {
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(before), StandardCharsets.UTF_8).split(" ");
            UUID id = Uuids.parse(parts[1]).orElseThrow();
            return new ConversationStore.Summary(id, null, null, OffsetDateTime.parse(parts[0]));
        } catch (RuntimeException e) {
            throw ApiException.badRequest("invalid_cursor", "before must be the next value of an earlier page");
        }
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
