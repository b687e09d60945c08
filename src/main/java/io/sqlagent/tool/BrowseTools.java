package io.sqlagent.tool;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.jsonschema.Param;

/**
 * The {@code browse_tools} meta-tool: lets a model discover tools (list, search, read one tool's
 * full description) without being sent every schema up front. It reads descriptors only, so it
 * never builds the tools it shows.
 */
@Singleton
@ToolDefinition(name = BrowseTools.NAME, title = "Browse tools", namespace = "tools", tags = { "tools", "discovery",
        "help" }, readOnly = true, description = "Discover the tools available to you. action=list returns every tool's name and summary; "
                + "action=search finds tools matching a query; action=help returns one tool's full description and parameters.", returns = "list/search: {\"tools\":[{\"name\",\"summary\",\"namespace\"}],\"count\"}; help: the tool's full descriptor", usage = "Use search or list first, then help on the tool you want, then call it.")
public class BrowseTools extends TypedTool<BrowseTools.Arguments> {

    /** The tool's name. */
    public static final String NAME = "browse_tools";

    private static final int DEFAULT_LIMIT = 10;

    private final ToolRegistry registry;
    private final ToolScopes scopes;

    BrowseTools(ToolRegistry registry, ToolScopes scopes) {
        this.registry = registry;
        this.scopes = scopes;
    }

    /** What to browse. */
    public enum Action {
        LIST,
        SEARCH,
        HELP
    }

    /** Arguments of {@code browse_tools}. */
    public record Arguments(
            @Param(description = "list, search or help") Action action,
            @Param(description = "For help: the tool to describe", maxLength = 64) Optional<String> name,
            @Param(description = "For search: words describing what you want to do", minLength = 1, maxLength = 200) Optional<String> query,
            @Param(description = "For search: how many tools to return at most", minimum = 1, maximum = 50, defaultValue = "10") Optional<Integer> limit) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        // The caller browses only what it may call.
        Caller caller = context.identity();
        return Uni.createFrom().item(() -> switch (arguments.action()) {
            case LIST -> listing(scopes.visible(caller, registry.list()));
            case SEARCH -> search(arguments, caller);
            case HELP -> help(arguments, caller);
        });
    }

    private Object search(Arguments arguments, Caller caller) {
        String query = arguments.query().orElseThrow(() -> new ToolException("action=search needs a query"));
        int limit = arguments.limit().orElse(DEFAULT_LIMIT);
        List<ToolDescriptor> found = scopes.visible(caller, registry.search(query, caller.unrestricted() ? limit : 1000));
        return listing(found.subList(0, Math.min(limit, found.size())));
    }

    private Object help(Arguments arguments, Caller caller) {
        String name = arguments.name().orElseThrow(() -> new ToolException("action=help needs the name of a tool"));
        return registry.descriptor(name)
                .filter(descriptor -> scopes.allows(caller, descriptor))
                .map(ToolFormats::fullForm)
                .orElseThrow(() -> new ToolException(
                        "No tool is named '" + name + "'; use action=list or action=search to find one"));
    }

    private static Map<String, Object> listing(List<ToolDescriptor> descriptors) {
        return Map.of("tools", descriptors.stream().map(ToolFormats::shortForm).toList(), "count", descriptors.size());
    }
}
