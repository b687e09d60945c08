package io.sqlagent.agent.rest;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseHeader;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.Caller;
import io.sqlagent.agent.AgentConfig;
import io.sqlagent.agent.live.LiveRuns;
import io.sqlagent.agent.live.RunEvent;
import io.sqlagent.agent.loop.AgentService;
import io.sqlagent.http.ApiException;
import io.sqlagent.http.ClientConnections;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.http.OnWrongType;
import io.sqlagent.http.StrictBodies;
import io.sqlagent.http.Uuids;
import io.sqlagent.security.CallerResolver;
import io.sqlagent.security.UsageLimits;
import io.sqlagent.store.BoundedStoreCalls;
import io.sqlagent.tool.UnknownToolsetException;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /api/chat}: a question in, the agent's run out as server-sent events, one per step
 * ({@code conversation}, {@code thinking}, {@code tool_call}, {@code tool_result}, {@code content},
 * then {@code done} or {@code error}). A bad request is refused with a JSON error before any
 * event. Every event has an id ({@code <run id>:<seq>}); a client whose connection closes may
 * resume with {@code Last-Event-ID} ({@link ChatRunResource}) within
 * {@code sqlagent.chat.resume.detached-timeout}, after which the run is cancelled. Events wait for a
 * slow reader in a bounded buffer ({@code sqlagent.agent.max-buffered-events}); a reader that falls
 * further behind is dropped, rather than buffered for without end. During shutdown new chats are
 * refused (503 {@code shutting_down}).
 */
@Path("/api/chat")
@Tag(name = "Chat", description = "Ask a question; the agent's steps stream back as server-sent events")
public class ChatResource {

    private static final int MAX_TOOLSETS = 50;
    /** What a client refused during shutdown is told to wait before asking again (another replica will answer). */
    private static final Duration SHUTTING_DOWN_RETRY = Duration.ofSeconds(2);
    /** Events handed to the writing thread at a time (on top of the overflow buffer). */
    private static final int EMIT_BATCH = 16;

    private final AgentService agent;
    private final BoundedStoreCalls store;
    private final AgentConfig config;
    private final CallerResolver callers;
    private final UsageLimits limits;
    private final LiveRuns runs;

    ChatResource(AgentService agent, AgentConfig config, BoundedStoreCalls store, CallerResolver callers, UsageLimits limits,
            LiveRuns runs) {
        this.runs = runs;
        this.callers = callers;
        this.limits = limits;
        this.agent = agent;
        this.store = store;
        this.config = config;
    }

    @POST
    @Consumes(MediaType.WILDCARD) // io.sqlagent.http.EdgeFilter refuses a body that is not JSON with the house error; an empty body needs no type
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "Ask the agent", description = "Body {\"question\": \"…\", \"conversation_id\": optional, \"toolsets\": optional [names]}. Answers text/event-stream: conversation "
            + "{conversation_id}, thinking {delta}, tool_call {id,name,arguments}, tool_result {id,name,ok,duration_ms,"
            + "result|error,outcome,truncated?}, content {delta}, then done {iterations,duration_ms,usage{input_tokens,"
            + "output_tokens},stop_reason} or error {code,message}. Every event has an id <run_id>:<seq>: after a dropped "
            + "connection, GET /api/chat/runs/{run_id}/events with Last-Event-ID resumes the stream (the run goes on for "
            + "sqlagent.chat.resume.detached-timeout without a reader, then is cancelled).")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ChatRequestBody.class), examples = {
            @ExampleObject(name = "question", summary = "A new conversation", value = "{\"question\": \"Which five artists have the most tracks?\"}"),
            @ExampleObject(name = "toolsets", summary = "Only some tools", value = "{\"question\": \"How many tracks are there?\", \"toolsets\": [\"catalog\"]}")
    }))
    @APIResponse(responseCode = "200", description = "The run's events")
    @APIResponse(responseCode = "400", description = "Malformed body, missing or over-long question, bad conversation_id, unknown toolset", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No conversation has this id", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "413", description = "The body is larger than sqlagent.tools.max-request-size", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "415", description = "The body is not sent as application/json", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "429", description = "The caller is over a per-principal limit (sqlagent.limits.*); retry after the Retry-After seconds", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "503", description = "The store database is out of reach or did not answer within sqlagent.store.timeout, or the replica is shutting down (shutting_down); retry after Retry-After seconds", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @Blocking // only to look the conversation up before answering (a 404 cannot follow a 200); the run itself never blocks
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @CustomDeserialization(StrictBodies.class)
    public Multi<OutboundSseEvent> chat(@Valid @NotNull(message = MISSING_QUESTION) ChatRequestBody request, @Context Sse sse,
            @Context RoutingContext http) {
        if (runs.draining()) {
            throw new ApiException(503, ErrorBody.of("shutting_down",
                    "This replica is shutting down and starts no new chat; ask again (another replica will answer)"),
                    Optional.of(SHUTTING_DOWN_RETRY));
        }
        String question = question(request);
        Optional<UUID> conversationId = Optional.ofNullable(request.conversationId()).map(UUID::fromString);
        Uni<AgentService.Start> starting;
        Caller caller = store.lookup(callers.of(http)).await().indefinitely();
        store.lookup(limits.chatRun(caller)).await().indefinitely().ifPresent(refusal -> {
            throw new ApiException(429, ErrorBody.of("rate_limited", refusal.message()),
                    Optional.of(Duration.ofSeconds(refusal.retryAfterSeconds())));
        });
        try {
            starting = agent.start(question, conversationId, caller,
                    Objects.requireNonNullElse(request.toolsets(), List.of()));
        } catch (UnknownToolsetException unknownToolset) {
            throw bad("unknown_toolset", unknownToolset.getMessage());
        }
        // BoundedStoreCalls bounds the wait by sqlagent.store.timeout and names an unreachable store (503).
        AgentService.Start start = store.lookup(starting).await().indefinitely();
        if (!start.conversationFound()) {
            throw ApiException.notFound("conversation_not_found", "No conversation has the id "
                    + request.conversationId() + "; leave conversation_id out to start one");
        }
        // The run goes on without its client for a while (sqlagent.chat.resume.detached-timeout): the client may resume it.
        Multi<RunEvent> events = runs.begin(start, caller, conversationId);
        return toClient(events, config, http).map(event -> sse(sse, event));
    }

    /**
     * {@code events} on their way to the client: the run emits on the model's (or the database's)
     * thread and must never wait for the client, so events queue here, boundedly, and reach the
     * connection from a worker; a closed connection cancels the stream.
     */
    static Multi<RunEvent> toClient(Multi<RunEvent> events, AgentConfig config, RoutingContext http) {
        return ClientConnections.cancelledWhenGone(events, http.request())
                .onOverflow().buffer(config.maxBufferedEvents())
                .emitOn(Infrastructure.getDefaultWorkerPool(), EMIT_BATCH);
    }

    /** The request's documented shape (for OpenAPI) and what it is bound to, with what each field must be. */
    @Schema(name = "ChatRequest")
    @OnWrongType("invalid_body: The body must be a JSON object such as {\"question\": \"How many tracks are there?\"}")
    public record ChatRequestBody(
            @Schema(required = true, description = "The question, in plain language", example = "How many tracks are there?") @OnWrongType("invalid_question: question must be a string") @NotNull(message = MISSING_QUESTION) String question,
            @JsonProperty("conversation_id") @Schema(description = "Continue this conversation (its earlier messages are the model's history): the conversation_id of its conversation event", format = "uuid") @OnWrongType(INVALID_CONVERSATION_ID) @Pattern(regexp = Uuids.CANONICAL, message = INVALID_CONVERSATION_ID) String conversationId,
            @Schema(description = "Offer the model only the tools of these toolsets (GET /api/tools?toolset=…); all tools when left out", example = "[\"catalog\"]") @OnWrongType(INVALID_TOOLSETS) @Size(min = 1, message = INVALID_TOOLSETS) @Size(max = MAX_TOOLSETS, message = "invalid_toolsets: toolsets names more than {max} toolsets; at most {max} are allowed") List<@NotBlank(message = INVALID_TOOLSETS) String> toolsets) {
    }

    private static final String MISSING_QUESTION = "missing_question: The body needs a question: \\{\"question\": \"…\"\\}";
    private static final String INVALID_CONVERSATION_ID = "invalid_conversation_id: conversation_id must be the UUID of a conversation, as the conversation event gave it";
    private static final String INVALID_TOOLSETS = "invalid_toolsets: toolsets must be an array of toolset names, such as [\"sales\"]";

    /** The question as the agent gets it: stripped, not blank, within sqlagent.agent.max-question-length. */
    private String question(ChatRequestBody request) {
        String text = request.question().strip();
        if (text.isEmpty()) {
            throw bad("missing_question", "question is blank");
        }
        if (text.length() > config.maxQuestionLength()) {
            throw bad("question_too_long", "question has " + text.length() + " characters; the limit is "
                    + config.maxQuestionLength() + " (sqlagent.agent.max-question-length)");
        }
        return text;
    }

    private static ApiException bad(String code, String message) {
        return ApiException.badRequest(code, message);
    }

    /**
     * One event on the wire: its id ({@code <run id>:<seq>}, for {@code Last-Event-ID}), name and JSON data.
     * No media type: RESTEasy would write it as a {@code content-type:} line, which is no SSE field.
     */
    static OutboundSseEvent sse(Sse sse, RunEvent event) {
        return sse.newEventBuilder().id(event.id()).name(event.name()).data(String.class, event.data()).build();
    }
}
