package io.sqlagent.agent.rest;

import java.util.Optional;
import java.util.UUID;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseHeader;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.agent.AgentConfig;
import io.sqlagent.agent.live.LiveRuns;
import io.sqlagent.agent.live.ResumedStreams;
import io.sqlagent.agent.live.RunEvent;
import io.sqlagent.agent.live.RunEventStore;
import io.sqlagent.http.ApiException;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.http.Uuids;
import io.sqlagent.security.CallerResolver;
import io.sqlagent.store.BoundedStoreCalls;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/chat/runs/{run_id}/events}: a chat run's stream again, for a client whose
 * connection dropped, on any replica: with {@code Last-Event-ID} (the id of the last event it
 * got) the events after it, else all of them, then the live ones until the run's last event. A
 * caller may resume only its own runs; another's is not found, as with conversations. And
 * {@code DELETE /api/chat/runs/{run_id}}: cancel one.
 */
@Path("/api/chat/runs")
@Tag(name = "Chat")
public class ChatRunResource {

    private final ResumedStreams streams;
    private final CallerResolver callers;
    private final BoundedStoreCalls store;
    private final AgentConfig config;
    private final LiveRuns runs;

    ChatRunResource(ResumedStreams streams, CallerResolver callers, BoundedStoreCalls store, AgentConfig config,
            LiveRuns runs) {
        this.runs = runs;
        this.streams = streams;
        this.callers = callers;
        this.store = store;
        this.config = config;
    }

    @GET
    @Path("{id}/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "Resume a chat stream", description = "The events of a run of POST /api/chat (same names, data and ids), "
            + "after the one named by Last-Event-ID (all of them without it), then the live ones until done or error. The run's "
            + "events are kept for sqlagent.chat.resume.retention.")
    @APIResponse(responseCode = "200", description = "The run's events")
    @APIResponse(responseCode = "204", description = "The run ended and Last-Event-ID names its last event: nothing is left to send (an EventSource stops reconnecting)")
    @APIResponse(responseCode = "400", description = "The run id is not a UUID, or Last-Event-ID is not an id of this run's events", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No run of the caller has this id (or it is older than the retention)", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "503", description = "The store database is out of reach or did not answer within sqlagent.store.timeout; retry after Retry-After seconds", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @Blocking // only to look the run up before answering (a 404 cannot follow a 200); the stream itself never blocks
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    public Multi<OutboundSseEvent> events(@PathParam("id") String id,
            @Parameter(description = "The id of the last event received, <run_id>:<seq>") @HeaderParam("Last-Event-ID") String lastEventId,
            @Context Sse sse, @Context RoutingContext http) {
        UUID runId = runId(id);
        int after = position(runId, lastEventId);
        Caller caller = store.lookup(callers.of(http)).await().indefinitely();
        RunEventStore.StoredRun run = store.read(streams.find(runId, caller.name())).await().indefinitely()
                .orElseThrow(() -> ApiException.notFound("run_not_found", "No chat run of yours has the id " + runId
                        + " (runs are kept for sqlagent.chat.resume.retention)"));
        // A live run's stored events may lag the wire by sqlagent.chat.resume.flush-interval: only an ended run is sure.
        if (run.ended() && after > run.lastSeq()) {
            throw ApiException.badRequest("invalid_last_event_id", "Last-Event-ID names event " + after + " of run " + runId
                    + ", which ended with event " + run.lastSeq());
        }
        if (run.ended() && after == run.lastSeq()) {
            // The client has every event: 204 is how the SSE standard tells an EventSource to stop
            // reconnecting; an empty 200 would have it come back every few seconds forever.
            throw new NothingLeft();
        }
        return ChatResource.toClient(streams.follow(runId, after), config, http).map(event -> ChatResource.sse(sse, event));
    }

    @DELETE
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Cancel a chat run", description = "Cancels a run of the caller, on whichever replica runs it: its stream "
            + "ends with an error event cancelled, and the statement it runs is cancelled. The chat page's Stop button.")
    @APIResponse(responseCode = "204", description = "The run is cancelled (at once here, within a second on another replica)")
    @APIResponse(responseCode = "400", description = "The run id is not a UUID", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No run of the caller has this id", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "409", description = "The run already ended", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Void>> cancel(@PathParam("id") String id, @Context RoutingContext http) {
        UUID runId = runId(id);
        return callers.of(http)
                .flatMap(caller -> store.lookup(runs.cancel(runId, caller.name())))
                .map(outcome -> switch (outcome) {
                    case CANCELLED -> RestResponse.<Void> noContent();
                    case ENDED -> throw new ApiException(409, ErrorBody.of("run_ended", "The run " + runId + " already ended"));
                    case NOT_FOUND -> throw ApiException.notFound("run_not_found", "No chat run of yours has the id " + runId);
                });
    }

    /** A resume of an ended run from its last event: nothing to send. */
    static final class NothingLeft extends RuntimeException {
        NothingLeft() {
            super("the run ended with the client's last event", null, false, false);
        }
    }

    @ServerExceptionMapper
    RestResponse<Void> nothingLeft(NothingLeft e) {
        return RestResponse.noContent();
    }

    private static UUID runId(String id) {
        return Uuids.parse(id).orElseThrow(() -> ApiException.badRequest("invalid_run_id",
                "A run id is a UUID: the part before the colon of an event's id"));
    }

    /** The seq after which to resume: 0 without a Last-Event-ID. */
    private static int position(UUID runId, String lastEventId) {
        if (lastEventId == null || lastEventId.isBlank()) {
            return 0;
        }
        Optional<RunEvent.Position> position = RunEvent.Position.parse(lastEventId);
        if (position.isEmpty()) {
            throw ApiException.badRequest("invalid_last_event_id",
                    "Last-Event-ID must be the id of an event of this run, <run_id>:<seq>, as the stream gave it");
        }
        if (!position.get().runId().equals(runId)) {
            throw ApiException.badRequest("invalid_last_event_id",
                    "Last-Event-ID names an event of run " + position.get().runId() + ", not of run " + runId);
        }
        return position.get().seq();
    }
}
