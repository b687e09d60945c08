package io.sqlagent.mcp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.quarkiverse.mcp.server.runtime.McpConnectionBase;
import io.quarkus.logging.Log;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.security.CallerResolver;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * An MCP session belongs to the principal that opened it. quarkus-mcp-server (1.13.0) finds a session by its id alone
 * ({@code Mcp-Session-Id} on {@code POST}, {@code GET} and {@code DELETE /mcp}, the path of the legacy
 * {@code /mcp/messages/<id>}), and a message posted to a legacy session is answered on that session's event stream, so
 * whoever holds an id could call tools in another principal's session, close it, or write into its stream. This check
 * runs before the library: it records the principal of each new session (from the {@code Mcp-Session-Id} the
 * initialize answer carries, or from the connection the {@code GET /mcp/sse} stream opened) and answers a request of
 * any other principal naming that session with 404, as the library answers an unknown one, before anything is read
 * or changed.
 */
@ApplicationScoped
public class McpSessionOwners {

    /** Before the message check and the library's routes, after authentication. */
    static final int ORDER = McpMessageCheck.ORDER - 1;

    private static final String SESSION_HEADER = "Mcp-Session-Id";

    /**
     * The response a legacy SSE connection writes to. The library keeps it private and hands the new id only to the
     * stream's body, so the connection this request opened is found by its response; a VarHandle reads it rather than
     * parsing the event stream. Null when the library changed shape: then the first principal to use the id owns it.
     */
    private static final VarHandle SSE_RESPONSE = sseResponse();
    private static final Class<?> SSE_CONNECTION = SSE_RESPONSE == null ? null : SSE_RESPONSE.coordinateTypes().get(0);

    private final String root;
    private final Pattern messagePath;
    private final CallerResolver callers;
    private final ConnectionManager connections;
    private final Map<String, String> owners = new ConcurrentHashMap<>();
    /** Each principal's sessions, oldest first. */
    private final Map<String, ArrayDeque<String>> sessionsOf = new ConcurrentHashMap<>();
    private final int maxSessionsPerPrincipal;
    private final AtomicLong opened = new AtomicLong();

    McpSessionOwners(@ConfigProperty(name = "quarkus.mcp.server.http.root-path", defaultValue = "/mcp") String root,
            CallerResolver callers, ConnectionManager connections, McpConfig config) {
        if (config.maxSessionsPerPrincipal() < 1) {
            throw new IllegalArgumentException("sqlagent.mcp.max-sessions-per-principal must be at least 1 (got "
                    + config.maxSessionsPerPrincipal() + ")");
        }
        this.root = root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
        this.messagePath = Pattern.compile(Pattern.quote(this.root) + "/messages/([^/?]+)");
        this.callers = callers;
        this.connections = connections;
        this.maxSessionsPerPrincipal = config.maxSessionsPerPrincipal();
    }

    void register(@Observes Router router) {
        router.routeWithRegex(Pattern.quote(root) + "(/.*)?").order(ORDER).handler(this::check);
    }

    private void check(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        var legacy = messagePath.matcher(path);
        String session = legacy.matches() ? legacy.group(1)
                : path.equals(root) || path.equals(root + "/") ? ctx.request().getHeader(SESSION_HEADER) : null;
        String caller = callers.authenticated(ctx).name();
        if (session != null && connections.has(session)) {
            String owner = owners.putIfAbsent(session, caller);
            if (owner != null && !owner.equals(caller)) {
                notFound(ctx, session);
                return;
            }
            if (ctx.request().method() == HttpMethod.DELETE) {
                ctx.addEndHandler(done -> {
                    if (ctx.response().getStatusCode() / 100 == 2) {
                        owners.remove(session, caller);
                    }
                });
            }
            ctx.next();
            return;
        }
        if (session != null) {
            ctx.next(); // an id the library does not know: it answers 404 itself
            return;
        }
        if (path.equals(root) || path.equals(root + "/")) {
            // A new streamable session: its id is in the answer's header.
            ctx.addHeadersEndHandler(ignored -> {
                String opened = ctx.response().headers().get(SESSION_HEADER);
                if (opened != null) {
                    own(opened, caller);
                }
            });
            ctx.next();
            return;
        }
        if (path.equals(root + "/sse") && ctx.request().method() == HttpMethod.GET) {
            HttpServerResponse response = ctx.response();
            // The library's handler adds the connection before it returns, on this thread.
            ctx.next();
            if (SSE_RESPONSE != null) {
                for (McpConnectionBase connection : connections) {
                    if (SSE_CONNECTION.isInstance(connection) && (Object) SSE_RESPONSE.get(connection) == response) {
                        own(connection.id(), caller);
                    }
                }
            }
            return;
        }
        ctx.next();
    }

    /**
     * Records {@code session} as {@code caller}'s, and closes the caller's oldest sessions beyond
     * {@code sqlagent.mcp.max-sessions-per-principal}: the library keeps a session until it has been idle for
     * {@code quarkus.mcp.server.connection-idle-timeout} (30 min), about 1.5 kB each, so a caller initializing in a loop
     * held 80,000 sessions and 150 MB of heap after a few minutes, and would have run the service out of memory. The
     * closed session's next request is answered 404, as the specification has clients then initialize again.
     */
    private void own(String session, String caller) {
        owners.put(session, caller);
        List<String> beyond = new ArrayList<>();
        // One principal's sessions change under the map's lock of its entry, so a sweep cannot drop an entry a new
        // session is being added to.
        sessionsOf.compute(caller, (name, held) -> {
            ArrayDeque<String> sessions = held == null ? new ArrayDeque<>() : held;
            sessions.removeIf(id -> !connections.has(id));
            sessions.addLast(session);
            while (sessions.size() > maxSessionsPerPrincipal) {
                beyond.add(sessions.pollFirst());
            }
            return sessions;
        });
        for (String oldest : beyond) {
            owners.remove(oldest);
            connections.remove(oldest);
            Log.debugf("MCP session %s of %s closed: the principal opened more than %d", oldest, caller,
                    maxSessionsPerPrincipal);
        }
        // Ids of sessions the library has closed (idle timeout, client gone) are forgotten now and then, not at every
        // new session: a sweep of every id per session made each initialize slower as sessions grew.
        if (opened.incrementAndGet() % 1024 == 0) {
            owners.keySet().removeIf(id -> !connections.has(id) && !id.equals(session));
            // A principal none of whose sessions is open any more is forgotten too.
            for (String principal : sessionsOf.keySet()) {
                sessionsOf.computeIfPresent(principal, (name, ids) -> {
                    ids.removeIf(id -> !connections.has(id));
                    return ids.isEmpty() ? null : ids;
                });
            }
        }
    }

    private static void notFound(RoutingContext ctx, String session) {
        Log.debugf("MCP session %s named by another principal was answered as not found", session);
        ctx.response().setStatusCode(404).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(io.sqlagent.SnakeCaseJson.MAPPER.valueToTree(ErrorBody.of("session_not_found",
                        "No MCP session has this id; initialize a new one")).toString());
    }

    private static VarHandle sseResponse() {
        try {
            Class<?> type = Class.forName("io.quarkiverse.mcp.server.http.runtime.SseMcpConnection");
            return MethodHandles.privateLookupIn(type, MethodHandles.lookup()).findVarHandle(type, "response",
                    HttpServerResponse.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            Log.warnf("MCP legacy SSE sessions are owned by the first principal that uses them: %s", e.getMessage());
            return null;
        }
    }
}
