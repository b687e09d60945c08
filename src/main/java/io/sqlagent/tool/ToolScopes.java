package io.sqlagent.tool;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import io.sqlagent.Caller;

/**
 * Which scopes each tool needs, and whether a caller holds them. Built-in defaults: {@code sql:read}
 * for {@code run_sql}, {@code introspect_schema}, {@code search_schema} and declared SQL tools without scopes of their own;
 * {@code knowledge:read} for {@code search_knowledge}, {@code knowledge:write} for the two save
 * tools, {@code knowledge:review} for the review tools ({@code list_proposals}, {@code review_proposal},
 * {@code check_validated_queries}); {@code workspace:read} / {@code workspace:write} for the workspace tools (by whether they
 * are read-only); a declared tool's {@code security.scopes} (and {@code requiredAuthority}) replace
 * the default. A caller may call a tool when it holds every scope the tool needs, when it holds
 * {@code toolset:<name>} for a toolset the tool belongs to (toolsets as groups of permissions), or
 * when it holds {@code admin}. {@code browse_tools} needs no scope: it lists only what the caller may call.
 */
@ApplicationScoped
public class ToolScopes {

    public static final String SQL_READ = "sql:read";
    public static final String KNOWLEDGE_READ = "knowledge:read";
    public static final String KNOWLEDGE_WRITE = "knowledge:write";
    /** Reviewing what the agent learned: the review tools and {@code /api/knowledge}; never offered to the agent. */
    public static final String KNOWLEDGE_REVIEW = "knowledge:review";
    public static final String WORKSPACE_READ = "workspace:read";
    public static final String WORKSPACE_WRITE = "workspace:write";
    /** Prefix of the scopes that grant every tool of a toolset. */
    public static final String TOOLSET_PREFIX = "toolset:";

    private static final Map<String, String> BUILT_IN = Map.of(
            "run_sql", SQL_READ,
            "introspect_schema", SQL_READ,
            "search_schema", SQL_READ,
            "search_knowledge", KNOWLEDGE_READ,
            "save_learning", KNOWLEDGE_WRITE,
            "save_validated_query", KNOWLEDGE_WRITE,
            "list_proposals", KNOWLEDGE_REVIEW,
            "review_proposal", KNOWLEDGE_REVIEW,
            "check_validated_queries", KNOWLEDGE_REVIEW);

    private final ToolRegistry registry;

    public ToolScopes(ToolRegistry registry) {
        this.registry = registry;
    }

    /** The scopes a caller needs for this tool (all of them); empty for a tool anyone may call. */
    public Set<String> required(ToolDescriptor descriptor) {
        String name = descriptor.name();
        if (BrowseTools.NAME.equals(name)) {
            return Set.of();
        }
        Set<String> declared = new LinkedHashSet<>();
        if (descriptor.metadata().extra().get("scopes") instanceof Collection<?> scopes) {
            scopes.forEach(scope -> declared.add(String.valueOf(scope)));
        }
        if (descriptor.metadata().extra().get("required_authority") instanceof String authority) {
            declared.add(authority);
        }
        if (!declared.isEmpty()) {
            return Set.copyOf(declared);
        }
        String builtIn = BUILT_IN.get(name);
        if (builtIn != null) {
            return Set.of(builtIn);
        }
        String namespace = descriptor.metadata().namespace().orElse("");
        return switch (namespace) {
            case "workspace" -> Set.of(descriptor.metadata().readOnly() ? WORKSPACE_READ : WORKSPACE_WRITE);
            case "declarative", "sql" -> Set.of(SQL_READ);
            case "knowledge" -> Set.of(descriptor.metadata().readOnly() ? KNOWLEDGE_READ : KNOWLEDGE_WRITE);
            // A tool of no known kind: only administrators, until someone decides otherwise.
            default -> Set.of(Caller.ADMIN);
        };
    }

    /**
     * Whether the tool is for people reviewing the agent's work ({@code knowledge:review}): it is
     * never offered to the agent, so the agent cannot approve what it proposed.
     */
    public boolean forReviewers(ToolDescriptor descriptor) {
        return required(descriptor).contains(KNOWLEDGE_REVIEW);
    }

    /** Whether {@code caller} may call (and see) the tool. */
    public boolean allows(Caller caller, ToolDescriptor descriptor) {
        return missing(caller, descriptor).isEmpty();
    }

    /** The tools of {@code descriptors} the caller may call, in their order. */
    public List<ToolDescriptor> visible(Caller caller, List<ToolDescriptor> descriptors) {
        if (caller.unrestricted()) {
            return descriptors;
        }
        return descriptors.stream().filter(descriptor -> allows(caller, descriptor)).toList();
    }

    /**
     * Why {@code caller} may not call the tool, naming the scopes it lacks; empty when it may.
     */
    public Optional<String> refusal(Caller caller, ToolDescriptor descriptor) {
        Set<String> missing = missing(caller, descriptor);
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        String needed = missing.size() == 1 ? "scope '" + missing.iterator().next() + "'"
                : "scopes " + String.join(", ", missing.stream().map(scope -> "'" + scope + "'").toList());
        Set<String> held = new TreeSet<>(caller.scopes());
        return Optional.of("Tool '" + descriptor.name() + "' needs " + needed + ", which caller '" + caller.name()
                + "' does not have (it has " + (held.isEmpty() ? "no scopes" : String.join(", ", held)) + ")");
    }

    private Set<String> missing(Caller caller, ToolDescriptor descriptor) {
        if (caller.unrestricted() || caller.scopes().contains(Caller.ADMIN)) {
            return Set.of();
        }
        Set<String> missing = new TreeSet<>(required(descriptor));
        missing.removeAll(caller.scopes());
        if (missing.isEmpty() || grantedByToolset(caller, descriptor.name())) {
            return Set.of();
        }
        return missing;
    }

    private boolean grantedByToolset(Caller caller, String tool) {
        for (String scope : caller.scopes()) {
            if (scope.startsWith(TOOLSET_PREFIX)) {
                Toolset toolset = registry.toolsets().get(scope.substring(TOOLSET_PREFIX.length()));
                if (toolset != null && toolset.tools().contains(tool)) {
                    return true;
                }
            }
        }
        return false;
    }
}
