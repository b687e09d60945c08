package io.sqlagent.rest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import jakarta.ws.rs.Consumes;
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
import io.sqlagent.MessageText;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.http.ClientConnections;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.http.JsonBodies;
import io.sqlagent.security.CallerResolver;
import io.sqlagent.security.UsageLimits;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolExecutor;
import io.sqlagent.tool.ToolFormats;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.ToolResult;
import io.sqlagent.tool.ToolScopes;
import io.sqlagent.tool.ToolsConfig;
import io.sqlagent.tool.UnknownToolsetException;
import io.vertx.ext.web.RoutingContext;

/**
 * The tools over REST: list and describe them, and call one through the same executor the agent
 * uses (hooks, validation, metrics, audit).
 */
@Path("/api/tools")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Tools", description = "List, describe and call the service's tools")
public class ToolResource {

    static final String CALLER = "rest";

    /** Seconds a client is asked to wait after a 503: about the time a typical statement takes to free a connection. */
    private static final int RETRY_AFTER_SECONDS = 2;

    private final ToolRegistry registry;
    private final ToolExecutor executor;
    private final long maxRequestBytes;
    private final CallerResolver callers;
    private final ToolScopes scopes;
    private final UsageLimits limits;

    ToolResource(ToolRegistry registry, ToolExecutor executor, ToolsConfig config, CallerResolver callers, ToolScopes scopes,
            UsageLimits limits) {
        this.limits = limits;
        this.registry = registry;
        this.executor = executor;
        this.maxRequestBytes = config.maxRequestSize().asLongValue();
        this.callers = callers;
        this.scopes = scopes;
    }

    @GET
    @Operation(summary = "List the tools", description = "The tools the caller may call (its scopes decide). Short descriptors by default; format=full for complete ones, "
            + "format=openai or format=anthropic for the forms model APIs take; toolset=a,b for the tools of those toolsets only.")
    @APIResponse(responseCode = "200", description = "The tools, by name")
    @APIResponse(responseCode = "400", description = "Unknown format or toolset", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> list(
            @Parameter(description = "short (default), full, openai or anthropic") @QueryParam("format") String format,
            @Parameter(description = "only the tools of these toolsets (repeat, or separate with commas)") @QueryParam("toolset") List<String> toolsets,
            @Context RoutingContext http) {
        return callers.of(http).map(caller -> list(format, toolsets, caller));
    }

    private RestResponse<Object> list(String format, List<String> toolsets, Caller caller) {
        ToolFormats.Format chosen;
        try {
            chosen = format == null || format.isBlank() ? ToolFormats.Format.SHORT
                    : ToolFormats.Format.valueOf(format.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return RestResponse.status(Status.BAD_REQUEST, ErrorBody.of("invalid_format",
                    "Unknown format '" + MessageText.shorten(format, 64) + "'; use short, full, openai or anthropic"));
        }
        List<String> names = toolsets == null ? List.of()
                : toolsets.stream()
                        .flatMap(value -> Arrays.stream(value.split(",")))
                        .map(String::strip)
                        .filter(name -> !name.isEmpty())
                        .toList();
        try {
            return RestResponse.ok(ToolFormats.all(scopes.visible(caller, registry.list(names)), chosen));
        } catch (UnknownToolsetException e) {
            return RestResponse.status(Status.BAD_REQUEST, ErrorBody.of("unknown_toolset", e.getMessage()));
        }
    }

    @GET
    @Path("{name}")
    @Operation(summary = "Describe one tool", description = "The full descriptor: description, parameters schema, return shape, usage notes, metadata.")
    @APIResponse(responseCode = "200", description = "The tool's full descriptor")
    @APIResponse(responseCode = "404", description = "No tool has this name, or the caller may not call it", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> describe(@PathParam("name") String name, @Context RoutingContext http) {
        return callers.of(http).map(caller -> registry.descriptor(name)
                .filter(descriptor -> scopes.allows(caller, descriptor))
                .<RestResponse<Object>> map(descriptor -> RestResponse.ok(ToolFormats.fullForm(descriptor)))
                .orElseGet(() -> RestResponse.status(Status.NOT_FOUND, unknownTool(name))));
    }

    @POST
    @Path("{name}")
    @Consumes(MediaType.WILDCARD) // io.sqlagent.http.EdgeFilter refuses a body that is not JSON with the house error; an empty body needs no type
    @Operation(summary = "Call a tool", description = "Runs the tool with the JSON object body as its arguments (an empty body means no arguments).")
    @RequestBody(description = "The arguments, as a JSON object matching the tool's parameters schema (GET /api/tools/{name})", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.OBJECT), examples = @ExampleObject(name = "run_sql", summary = "Arguments of run_sql", value = "{\"sql\": \"SELECT name FROM genre ORDER BY name LIMIT 5\"}")))
    @APIResponse(responseCode = "200", description = "{\"result\": ...} — what the tool returned")
    @APIResponse(responseCode = "400", description = "Malformed JSON, a body that is not an object, or invalid arguments (details per argument)", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "403", description = "A hook or policy blocked the call (blocked), or the caller lacks a scope the tool needs or names a database role it may not use (forbidden)", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No tool has this name", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "413", description = "The body is larger than sqlagent.tools.max-request-size", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "415", description = "The body is not sent as application/json", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "422", description = "The tool ran and failed; the message says why", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "429", description = "The caller is over its tool calls per minute (sqlagent.limits.tool-calls-per-minute); "
            + "retry after the Retry-After seconds", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "503", description = "A source the tool needs is busy (all connections in use, its wait queue full or the wait too long); "
            + "retry after the Retry-After seconds", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> call(
            @Parameter(description = "the tool's name", example = "run_sql") @PathParam("name") String name, byte[] body,
            @Context RoutingContext http) {
        if (body != null && body.length > maxRequestBytes) {
            return Uni.createFrom().item(RestResponse.status(Status.REQUEST_ENTITY_TOO_LARGE, ErrorBody.of("body_too_large",
                    "The body has " + body.length + " bytes; the limit is " + maxRequestBytes
                            + " (sqlagent.tools.max-request-size)")));
        }
        ObjectNode arguments;
        try {
            arguments = JsonBodies.object(body, "a JSON object of arguments");
        } catch (JsonBodies.BadBody e) {
            return Uni.createFrom().item(RestResponse.status(Status.BAD_REQUEST, e.error()));
        }
        ToolCall call = new ToolCall("rest-" + UUID.randomUUID(), name, arguments);
        // A caller that goes away cancels the call, down to its statement in the database
        // (Quarkus REST does so itself; this is the safety net, see ClientConnections).
        return callers.of(http).flatMap(caller -> limits.toolCall(caller).flatMap(refused -> refused.isPresent()
                ? Uni.createFrom().item(rateLimited(refused.get()))
                : ClientConnections
                        .cancelledWhenGone(executor.execute(call, ToolCallContext.of(CALLER, caller)), http.request())
                        .map(ToolResource::response)));
    }

    private static RestResponse<Object> rateLimited(UsageLimits.Refusal refusal) {
        return RestResponse.ResponseBuilder.<Object> create(Status.TOO_MANY_REQUESTS)
                .header("Retry-After", refusal.retryAfterSeconds()).entity(ErrorBody.of("rate_limited", refusal.message()))
                .build();
    }

    private static RestResponse<Object> response(ToolExecution execution) {
        ToolResult result = execution.result();
        if (result instanceof ToolResult.Success success) {
            return RestResponse.ok(resultBody(success));
        }
        if (result instanceof ToolResult.Stopped stopped) {
            return RestResponse.ok(stoppedBody(stopped.reason()));
        }
        ToolResult.Failure failure = (ToolResult.Failure) result;
        ErrorBody error = ErrorBody.toolFailure(failure);
        return switch (failure.outcome()) {
            case INVALID_ARGUMENTS -> RestResponse.status(Status.BAD_REQUEST, error);
            case BLOCKED, FORBIDDEN -> RestResponse.status(Status.FORBIDDEN, error);
            case UNKNOWN_TOOL -> RestResponse.status(Status.NOT_FOUND, error);
            case UNAVAILABLE -> RestResponse.ResponseBuilder.<Object> create(Status.SERVICE_UNAVAILABLE)
                    .header("Retry-After", RETRY_AFTER_SECONDS).entity(error).build();
            default -> RestResponse.ResponseBuilder.<Object> create(422).entity(error).build();
        };
    }

    /**
     * {@code {"result": ...}} as bytes, around the result's own JSON: the one serialisation of it, which
     * the audit log measures too (see {@link ToolResult.Success#json()}).
     */
    private static byte[] resultBody(ToolResult.Success success) {
        byte[] value = success.json();
        byte[] body = new byte[RESULT_OPEN.length + value.length + 1];
        System.arraycopy(RESULT_OPEN, 0, body, 0, RESULT_OPEN.length);
        System.arraycopy(value, 0, body, RESULT_OPEN.length, value.length);
        body[body.length - 1] = '}';
        return body;
    }

    private static final byte[] RESULT_OPEN = "{\"result\":".getBytes(StandardCharsets.UTF_8);

    private static ObjectNode stoppedBody(String reason) {
        ObjectNode body = SnakeCaseJson.MAPPER.createObjectNode();
        body.putNull("result");
        body.put("stopped", reason);
        return body;
    }

    private ErrorBody unknownTool(String name) {
        return ErrorBody.of("unknown_tool",
                "No tool is named '" + MessageText.shorten(name, 64) + "'; GET /api/tools lists them");
    }
}
