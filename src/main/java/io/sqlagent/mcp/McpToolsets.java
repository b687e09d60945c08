package io.sqlagent.mcp;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.mcp.server.FilterContext;
import io.quarkiverse.mcp.server.InitialCheck;
import io.quarkiverse.mcp.server.InitialRequest;
import io.quarkiverse.mcp.server.McpMethod;
import io.quarkiverse.mcp.server.ToolFilter;
import io.quarkiverse.mcp.server.ToolManager.ToolInfo;
import io.quarkus.arc.Arc;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.security.CallerResolver;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.ToolScopes;
import io.vertx.ext.web.RoutingContext;

/**
 * Toolset selection for MCP clients. quarkus-mcp-server shows filters and initial checks only the
 * MCP connection (client info, capabilities, {@code _meta}), not the HTTP request; but it activates
 * the request context with the current Vert.x request for every message, so the selection is read
 * from the {@code toolsets} query parameter of the request being handled. Streamable HTTP clients
 * send every message to the one URL they were configured with, so the parameter comes with each.
 * <ul>
 * <li>{@code initialize} with an unknown toolset fails with a JSON-RPC error naming it;</li>
 * <li>{@code tools/list} shows only the selected tools, and of those only the ones the caller's
 * scopes allow ({@link ToolScopes});</li>
 * <li>{@code tools/call} is not filtered here: {@link McpToolCalls} refuses a tool outside the
 * selection with a tool error that says why, rather than the library's bare "Invalid tool name".</li>
 * </ul>
 */
@ApplicationScoped
public class McpToolsets implements ToolFilter, InitialCheck {

    private static final String CACHE_KEY = McpToolsets.class.getName();
    private static final String CALLER_KEY = McpToolsets.class.getName() + ".caller";

    private final ToolRegistry registry;
    private final CurrentVertxRequest currentVertxRequest;
    private final CallerResolver callers;
    private final ToolScopes scopes;

    McpToolsets(ToolRegistry registry, CurrentVertxRequest currentVertxRequest, CallerResolver callers, ToolScopes scopes) {
        this.registry = registry;
        this.currentVertxRequest = currentVertxRequest;
        this.callers = callers;
        this.scopes = scopes;
    }

    /** The selection of the MCP request being handled; all tools outside an HTTP request. */
    public ToolsetSelection current() {
        RoutingContext request = currentRequest();
        if (request == null) {
            return ToolsetSelection.all();
        }
        // tools/list asks once per tool: resolve once per HTTP request.
        ToolsetSelection cached = request.get(CACHE_KEY);
        if (cached == null) {
            List<String> values = request.queryParam(ToolsetSelection.PARAMETER);
            cached = values.isEmpty() ? ToolsetSelection.all() : ToolsetSelection.resolve(values, registry);
            request.put(CACHE_KEY, cached);
        }
        return cached;
    }

    private RoutingContext currentRequest() {
        return Arc.container().requestContext().isActive() ? currentVertxRequest.getCurrent() : null;
    }

    @Override
    public boolean test(ToolInfo tool, FilterContext context) {
        return context.method() != McpMethod.TOOLS_LIST
                || current().allows(tool.name()) && registry.descriptor(tool.name())
                        .map(descriptor -> scopes.allows(caller(), descriptor)).orElse(false);
    }

    /**
     * The caller of the request being handled. Filters cannot wait, and the identity is on the
     * request already: proactive authentication runs before any endpoint.
     */
    private Caller caller() {
        RoutingContext request = currentRequest();
        if (request == null) {
            return callers.of((io.quarkus.security.identity.SecurityIdentity) null);
        }
        Caller cached = request.get(CALLER_KEY);
        if (cached == null) {
            cached = callers.authenticated(request);
            request.put(CALLER_KEY, cached);
        }
        return cached;
    }

    @Override
    public Uni<CheckResult> perform(InitialRequest initialRequest) {
        ToolsetSelection selection = current();
        return selection.isValid() ? CheckResult.success() : CheckResult.error(selection.error());
    }
}
