package io.sqlagent.knowledge.rest;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import jakarta.validation.Validator;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response.Status;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.http.JsonBodies;
import io.sqlagent.http.OnUnknownField;
import io.sqlagent.http.OnWrongType;
import io.sqlagent.http.StrictBodies;
import io.sqlagent.knowledge.KnowledgeReader;
import io.sqlagent.knowledge.KnowledgeReviews;
import io.sqlagent.knowledge.ReviewException;
import io.sqlagent.knowledge.ValidatedQueries;
import io.sqlagent.security.CallerResolver;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolScopes;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /api/knowledge}: reviewing what the agent learned. Proposals (while
 * {@code sqlagent.learning.approval=required}) are listed, approved with optional edits or rejected
 * with an optional reason; any item can be read with its provenance or deleted; validated queries
 * can be checked again. Deciding needs scope {@code knowledge:review}. Reading (the list, an item by id) is also
 * open to callers with {@code knowledge:read} or {@code knowledge:write}, who see only what
 * {@link KnowledgeReader} lets them: their own proposals, and approved items without their author's provenance.
 * A refused or invalid request changes nothing.
 */
@Path("/api/knowledge")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Knowledge review", description = "Approve, reject and check what the agent learned")
public class KnowledgeResource {

    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 100;

    private final KnowledgeReviews reviews;
    private final ValidatedQueries queries;
    private final CallerResolver callers;
    private final Validator validator;

    KnowledgeResource(KnowledgeReviews reviews, ValidatedQueries queries, CallerResolver callers, Validator validator) {
        this.reviews = reviews;
        this.queries = queries;
        this.callers = callers;
        this.validator = validator;
    }

    /** What {@code POST …/reject} takes, with what its field must be ({@link StrictBodies#bind}). */
    @OnWrongType("invalid_body: The body must be a JSON object {\"reason\": …}")
    @OnUnknownField(value = "invalid_body: Unknown field '{field}': a rejection takes only \"reason\"", quoteAtMost = 40)
    public record Rejection(
            @Schema(description = "Why it is rejected, kept with the item (at most 2000 characters)", example = "Totals are in the customer's currency.") @OnWrongType("invalid_body: \"reason\" must be a string") String reason) {
    }

    @GET
    @Path("proposals")
    @Operation(summary = "List proposals", description = "{items:[{id, kind: learning|validated_query, status, title|name, ..., provenance}], can_review}, "
            + "oldest first. ?limit= 1..100 (default 50). Scope knowledge:review lists every proposal; knowledge:read or knowledge:write "
            + "lists the caller's own (can_review false).")
    @APIResponse(responseCode = "200", description = "The proposals waiting for review that the caller may read")
    @APIResponse(responseCode = "400", description = "A limit outside 1..100", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "403", description = "The caller lacks scopes knowledge:review, knowledge:read and knowledge:write", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> proposals(@QueryParam("limit") String limit, @Context RoutingContext http) {
        return reader(http, caller -> {
            int size;
            try {
                size = limit == null || limit.isBlank() ? DEFAULT_LIMIT : Integer.parseInt(limit.strip());
            } catch (NumberFormatException e) {
                size = -1;
            }
            if (size < 1 || size > MAX_LIMIT) {
                return Uni.createFrom().item(RestResponse.status(Status.BAD_REQUEST,
                        ErrorBody.of("invalid_limit", "limit must be a whole number from 1 to " + MAX_LIMIT)));
            }
            KnowledgeReader reader = KnowledgeReader.of(caller);
            return reviews.proposals(size, reader)
                    .map(items -> RestResponse.ok(Map.of("items", items, "can_review", reader.reviewer())));
        });
    }

    @GET
    @Path("items/{id}")
    @Operation(summary = "Read a knowledge item", description = "A learning (learning-12) or validated query (query-7) with its status and provenance. "
            + "Scope knowledge:review reads any item; knowledge:read or knowledge:write reads the caller's own and approved ones "
            + "(another's approved item without its question, conversation, principals and result digest).")
    @APIResponse(responseCode = "200", description = "The item")
    @APIResponse(responseCode = "403", description = "The caller lacks scopes knowledge:review, knowledge:read and knowledge:write", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No item has this id that the caller may read", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> item(
            @Parameter(description = "learning-<n> or query-<n>", example = "learning-1") @PathParam("id") String id,
            @Context RoutingContext http) {
        return reader(http, caller -> reviews.item(id, KnowledgeReader.of(caller)).map(RestResponse::ok));
    }

    @POST
    @Path("proposals/{id}/approve")
    @Consumes(MediaType.WILDCARD) // io.sqlagent.http.EdgeFilter refuses a body that is not JSON with the house error
    @Operation(summary = "Approve a proposal", description = "Optional body: edits, {\"title\", \"description\", \"category\", \"sql\"} for a learning, "
            + "{\"name\", \"question\", \"sql\", \"summary\", \"tables_used\", \"data_quality_notes\"} for a validated query (an edited SQL runs again "
            + "as the reviewer's run_sql first). Answers the item, approved, with who approved it and when. Scope knowledge:review.")
    @APIResponse(responseCode = "200", description = "The approved item")
    @APIResponse(responseCode = "400", description = "Edits that are not valid (invalid_edits), a body that is not a JSON object", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "403", description = "The caller lacks scope knowledge:review, or an edited SQL is refused", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No item has this id", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "409", description = "The item was reviewed already (already_reviewed), or an edit clashes with another item (duplicate)", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "422", description = "An edited SQL does not run", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @RequestBody(required = false, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.OBJECT, description = "Edits, by field"), examples = {
            @ExampleObject(name = "as proposed", summary = "Approve without edits", value = "{}"),
            @ExampleObject(name = "edited", summary = "Approve a learning with a clearer title", value = "{\"title\": \"Invoice totals are in US dollars\"}") }))
    public Uni<RestResponse<Object>> approve(
            @Parameter(description = "learning-<n> or query-<n>", example = "learning-1") @PathParam("id") String id,
            byte[] body, @Context RoutingContext http) {
        return reviewer(http, caller -> {
            ObjectNode edits = JsonBodies.object(body, "a JSON object of edits");
            return reviews.approve(id, edits, new ToolCallContext("rest", Optional.empty(), caller)).map(RestResponse::ok);
        });
    }

    @POST
    @Path("proposals/{id}/reject")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Reject a proposal", description = "Optional body {\"reason\": \"…\"} (at most 2000 characters), kept with the item. "
            + "A rejected item is never searched; the same learning proposed again is refused. Scope knowledge:review.")
    @APIResponse(responseCode = "200", description = "The rejected item")
    @APIResponse(responseCode = "400", description = "A body other than {\"reason\": text}", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "403", description = "The caller lacks scope knowledge:review", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No item has this id", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "409", description = "The item was reviewed already", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @RequestBody(required = false, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Rejection.class), examples = {
            @ExampleObject(name = "with a reason", summary = "Reject, saying why", value = "{\"reason\": \"Totals are in the customer's currency, not dollars.\"}") }))
    public Uni<RestResponse<Object>> reject(
            @Parameter(description = "learning-<n> or query-<n>", example = "learning-1") @PathParam("id") String id,
            byte[] body, @Context RoutingContext http) {
        return reviewer(http, caller -> {
            // Bound after the scope check, not as a parameter: a caller who may not review hears 403, whatever it sent.
            Rejection rejection = StrictBodies.bind(body, Rejection.class, validator);
            return reviews.reject(id, rejection.reason(), caller.name()).map(RestResponse::ok);
        });
    }

    @DELETE
    @Path("items/{id}")
    @Operation(summary = "Delete a knowledge item", description = "A learning or validated query, whatever its status. Scope knowledge:review.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "403", description = "The caller lacks scope knowledge:review", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No item has this id", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> delete(
            @Parameter(description = "learning-<n> or query-<n>", example = "learning-1") @PathParam("id") String id,
            @Context RoutingContext http) {
        return reviewer(http, caller -> reviews.delete(id).map(done -> RestResponse.<Object> noContent()));
    }

    @POST
    @Path("validated-queries/check")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Check the validated queries", description = "Runs every validated query again as the caller's run_sql; flags (and leaves out of "
            + "searches) those that no longer run (failed) or whose result's digest changed (drifted). "
            + "{checked, counts: {ok, failed, drifted, skipped}, flagged: [{id, name, status, message}]}. Scope knowledge:review.")
    @APIResponse(responseCode = "200", description = "What each check came to")
    @APIResponse(responseCode = "403", description = "The caller lacks scope knowledge:review", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> check(@Context RoutingContext http) {
        return reviewer(http, caller -> queries.checkAll(new ToolCallContext("rest", Optional.empty(), caller))
                .map(checks -> RestResponse.ok(ValidatedQueries.summary(checks))));
    }

    /** What a reviewer's request does. */
    @FunctionalInterface
    private interface Review {
        Uni<RestResponse<Object>> run(Caller caller) throws JsonBodies.BadBody;
    }

    /** Runs {@code review} for a caller with scope knowledge:review; answers refusals and review failures with their status. */
    private Uni<RestResponse<Object>> reviewer(RoutingContext http, Review review) {
        return guarded(http, caller -> caller.has(ToolScopes.KNOWLEDGE_REVIEW) ? Optional.empty()
                : Optional.of("Reviewing knowledge needs scope '" + ToolScopes.KNOWLEDGE_REVIEW + "', which caller '"
                        + caller.name() + "' does not have"),
                review);
    }

    /**
     * Runs {@code read} for a caller who may read knowledge items (scope knowledge:review, knowledge:read or
     * knowledge:write); what it sees is narrowed by {@link KnowledgeReader}.
     */
    private Uni<RestResponse<Object>> reader(RoutingContext http, Review read) {
        return guarded(http, caller -> caller.has(ToolScopes.KNOWLEDGE_REVIEW) || caller.has(ToolScopes.KNOWLEDGE_READ)
                || caller.has(ToolScopes.KNOWLEDGE_WRITE) ? Optional.empty()
                        : Optional.of("Reading knowledge items needs scope '" + ToolScopes.KNOWLEDGE_READ + "', '"
                                + ToolScopes.KNOWLEDGE_WRITE + "' or '" + ToolScopes.KNOWLEDGE_REVIEW + "', which caller '"
                                + caller.name() + "' does not have"),
                read);
    }

    /** Runs {@code review} unless {@code refusal} says why the caller may not; answers failures with their status. */
    private Uni<RestResponse<Object>> guarded(RoutingContext http,
            Function<Caller, Optional<String>> refusal,
            Review review) {
        return callers.of(http).<RestResponse<Object>> flatMap(caller -> {
            Optional<String> missing = refusal.apply(caller);
            if (missing.isPresent()) {
                return Uni.createFrom().item(RestResponse.<Object> status(Status.FORBIDDEN, ErrorBody.of("forbidden",
                        missing.get())));
            }
            try {
                return review.run(caller);
            } catch (JsonBodies.BadBody bad) {
                return Uni.createFrom().item(RestResponse.<Object> status(Status.BAD_REQUEST, bad.error()));
            } catch (ReviewException refused) {
                return Uni.createFrom().item(answer(refused));
            }
        }).onFailure(io.sqlagent.tool.ToolException.class).recoverWithItem(KnowledgeResource::toolFailure);
    }

    private static RestResponse<Object> answer(ReviewException refused) {
        return RestResponse.<Object> status(Status.fromStatusCode(refused.status()),
                ErrorBody.of(refused.code(), refused.getMessage()));
    }

    /**
     * A review failure with its status, or an edited SQL that run_sql refused (403 blocked / forbidden) or that failed (422
     * tool_failed).
     */
    private static RestResponse<Object> toolFailure(Throwable failure) {
        if (failure instanceof ReviewException refused) {
            return answer(refused);
        }
        if (failure instanceof io.sqlagent.tool.ToolRefusedException) {
            return RestResponse.status(Status.FORBIDDEN, ErrorBody.of("blocked", failure.getMessage()));
        }
        if (failure instanceof io.sqlagent.tool.ToolForbiddenException) {
            return RestResponse.status(Status.FORBIDDEN, ErrorBody.of("forbidden", failure.getMessage()));
        }
        if (failure instanceof io.sqlagent.tool.ToolUnavailableException) {
            return RestResponse.status(Status.SERVICE_UNAVAILABLE, ErrorBody.of("busy", failure.getMessage()));
        }
        return RestResponse.ResponseBuilder.<Object> create(422).entity(ErrorBody.of("tool_failed", failure.getMessage()))
                .build();
    }
}
