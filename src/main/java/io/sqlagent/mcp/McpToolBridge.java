package io.sqlagent.mcp;

import java.util.HashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkiverse.mcp.server.McpServer;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkiverse.mcp.server.ToolManager.ToolAnnotations;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolRegistry;
import io.vertx.core.json.JsonObject;

/**
 * Serves every tool of the {@link ToolRegistry} over MCP and keeps the two in step. At start-up each
 * tool is registered with quarkus-mcp-server's {@link ToolManager}: its JSON Schema as the
 * {@code inputSchema}, unchanged, its title and description, and annotations from its metadata.
 * After every registry change (a reload of declared tools, a tool added or removed) the MCP tools
 * are brought in line with the registry; each registration and removal makes the library send
 * {@code notifications/tools/list_changed} to connected clients. A tool whose definition did not
 * change is left alone, so a reload that changes nothing sends nothing.
 */
@ApplicationScoped
public class McpToolBridge {

    private final ToolRegistry registry;
    private final ToolManager toolManager;
    private final McpToolCalls calls;
    /** What is registered with MCP now, by name; guarded by {@code this}. */
    private final Map<String, ToolDescriptor> served = new HashMap<>();

    McpToolBridge(ToolRegistry registry, ToolManager toolManager, McpToolCalls calls) {
        this.registry = registry;
        this.toolManager = toolManager;
        this.calls = calls;
    }

    void serveOnStart(@Observes StartupEvent event) {
        // Listen first: a change that lands between the two steps is then never missed.
        registry.onChange(change -> synchronize());
        synchronize();
        Log.infof("MCP serves %d tools", served.size());
    }

    /**
     * Makes the MCP tools match the registry's tools. Runs on the thread that changed the registry;
     * it only updates maps and queues notifications, so it never blocks.
     */
    synchronized void synchronize() {
        Map<String, ToolDescriptor> wanted = new HashMap<>();
        registry.list().forEach(descriptor -> wanted.put(descriptor.name(), descriptor));
        served.keySet().removeIf(name -> {
            ToolDescriptor now = wanted.get(name);
            if (now != null && now.equals(served.get(name))) {
                return false;
            }
            toolManager.removeTool(name, McpServer.DEFAULT);
            return true;
        });
        wanted.forEach((name, descriptor) -> {
            if (!served.containsKey(name)) {
                serve(descriptor);
            }
        });
    }

    /** One tool the library refuses (a name against its configured pattern, say) must not cost the others. */
    private void serve(ToolDescriptor descriptor) {
        try {
            register(descriptor);
            served.put(descriptor.name(), descriptor);
        } catch (RuntimeException e) {
            Log.warnf("Tool '%s' is not served over MCP: %s", descriptor.name(), e.getMessage());
        }
    }

    private void register(ToolDescriptor descriptor) {
        String name = descriptor.name();
        toolManager.newTool(name)
                .setTitle(titleOf(descriptor))
                .setDescription(descriptor.description())
                .setInputSchema(new JsonObject(descriptor.parameters().toString()))
                .setAnnotations(annotationsOf(descriptor))
                .setAsyncHandler(arguments -> calls.call(name, arguments))
                .register();
    }

    private static String titleOf(ToolDescriptor descriptor) {
        String title = descriptor.metadata().title();
        return title == null || title.isBlank() ? descriptor.name() : title;
    }

    /**
     * Hints for clients (they decide, for example, whether to ask before a call). A read-only tool
     * neither destroys nor repeats effects; for the others the MCP defaults stand (may destroy, not
     * idempotent). No tool reaches outside the databases and store the service is configured with.
     */
    static ToolAnnotations annotationsOf(ToolDescriptor descriptor) {
        boolean readOnly = descriptor.metadata().readOnly();
        return new ToolAnnotations(titleOf(descriptor), readOnly, !readOnly, readOnly, false);
    }
}
