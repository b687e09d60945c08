package io.sqlagent.tool;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable set of tools indexed by name, in insertion order: what one agent run or one
 * toolset offers the model. Every change returns a new collection.
 */
public final class Tools {

    private static final Tools EMPTY = new Tools(Map.of());

    private final Map<String, Tool> byName;

    private Tools(Map<String, Tool> byName) {
        this.byName = byName;
    }

    public static Tools empty() {
        return EMPTY;
    }

    /**
     * A collection of these tools.
     *
     * @throws IllegalArgumentException if two tools share a name
     */
    public static Tools of(Tool... tools) {
        return EMPTY.with(tools);
    }

    /** A collection of these tools; names must be unique. */
    public static Tools of(Collection<? extends Tool> tools) {
        return EMPTY.with(tools.toArray(Tool[]::new));
    }

    /**
     * This collection plus {@code tools}.
     *
     * @throws IllegalArgumentException if a name is already taken
     */
    public Tools with(Tool... tools) {
        Map<String, Tool> copy = new LinkedHashMap<>(byName);
        for (Tool tool : tools) {
            String name = tool.descriptor().name();
            if (copy.putIfAbsent(name, tool) != null) {
                throw new IllegalArgumentException("A tool named '" + name + "' is already in the collection");
            }
        }
        return new Tools(Collections.unmodifiableMap(copy));
    }

    /** This collection without the named tools (names not present are ignored). */
    public Tools without(String... names) {
        Map<String, Tool> copy = new LinkedHashMap<>(byName);
        for (String name : names) {
            copy.remove(name);
        }
        return new Tools(Collections.unmodifiableMap(copy));
    }

    /** This collection and {@code other}; on a shared name, {@code other}'s tool wins. */
    public Tools merge(Tools other) {
        Map<String, Tool> copy = new LinkedHashMap<>(byName);
        copy.putAll(other.byName);
        return new Tools(Collections.unmodifiableMap(copy));
    }

    public Optional<Tool> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    public boolean has(String name) {
        return byName.containsKey(name);
    }

    public Set<String> names() {
        return byName.keySet();
    }

    public int size() {
        return byName.size();
    }

    public boolean isEmpty() {
        return byName.isEmpty();
    }

    /** The descriptors, in order. */
    public List<ToolDescriptor> descriptors() {
        return byName.values().stream().map(Tool::descriptor).toList();
    }

    @Override
    public String toString() {
        return "Tools" + byName.keySet();
    }
}
