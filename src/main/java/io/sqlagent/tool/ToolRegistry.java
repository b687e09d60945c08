package io.sqlagent.tool;

import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import io.quarkus.logging.Log;
import io.sqlagent.jsonschema.CompiledSchema;

/**
 * Every tool the service offers, by name. Tools are registered by descriptor and built lazily on
 * their first call, so listing, describing and searching never build one. {@link TypedTool} beans
 * are found automatically; other tools arrive through {@link ToolProvider} beans or
 * {@link #register(ToolRegistration)}. A group of tools (for example those declared in YAML) can
 * be replaced at once with {@link #replaceGroup}: readers see either the old tools or the new ones,
 * never a mix, and {@linkplain #onChange listeners} hear what changed. Named {@link Toolset}s select
 * tools for a caller.
 */
@ApplicationScoped
public class ToolRegistry {

    /** What changed in one update: names added, removed, and replaced by a new definition. */
    public record Change(Set<String> added, Set<String> removed, Set<String> replaced) {

        public Change {
            added = Set.copyOf(added);
            removed = Set.copyOf(removed);
            replaced = Set.copyOf(replaced);
        }

        public boolean isEmpty() {
            return added.isEmpty() && removed.isEmpty() && replaced.isEmpty();
        }
    }

    /** The tools in effect, sorted by name; replaced whole on every update, never changed in place. */
    private volatile Map<String, Entry> entries = Map.of();
    /** Tool names by the group that registered them; ungrouped tools are not listed here. */
    private volatile Map<String, Set<String>> groups = Map.of();
    private volatile Map<String, Toolset> toolsets = Map.of();
    private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();

    @Inject
    ToolRegistry(@Any Instance<Tool> toolBeans, @Any Instance<ToolProvider> providers,
            @Any Instance<ToolDescriptorCustomizer> customizers) {
        // Handles expose each bean's class without creating the bean.
        for (Instance.Handle<Tool> handle : toolBeans.handles()) {
            register(customized(registrationOf(handle.getBean().getBeanClass(), toolBeans), customizers));
        }
        for (ToolProvider provider : providers) {
            provider.registrations().forEach(this::register);
        }
        Log.debugf("Tool registry holds %d tools: %s", entries.size(), entries.keySet());
    }

    /** An empty registry, for tests and benchmarks outside CDI. */
    public ToolRegistry() {
    }

    @SuppressWarnings("unchecked")
    private static ToolRegistration registrationOf(Class<?> beanClass, Instance<Tool> toolBeans) {
        Supplier<Tool> factory = () -> toolBeans.select((Class<Tool>) beanClass).get();
        if (TypedTool.class.isAssignableFrom(beanClass)) {
            return new ToolRegistration(TypedTool.describe(beanClass), factory);
        }
        // A hand-written Tool can only describe itself once it exists.
        return ToolRegistration.of(factory.get());
    }

    private static ToolRegistration customized(ToolRegistration registration, Instance<ToolDescriptorCustomizer> customizers) {
        ToolDescriptor descriptor = registration.descriptor();
        for (ToolDescriptorCustomizer customizer : customizers) {
            descriptor = customizer.customize(descriptor);
        }
        return descriptor == registration.descriptor() ? registration
                : new ToolRegistration(descriptor, registration.factory());
    }

    /**
     * Adds a tool.
     *
     * @throws IllegalStateException if the name is taken
     * @throws IllegalArgumentException if the argument schema is not one the validator supports
     */
    public void register(ToolRegistration registration) {
        ToolDescriptor descriptor = registration.descriptor();
        Entry entry = new Entry(descriptor, CompiledSchema.compile(descriptor.parameters()), registration.factory());
        synchronized (this) {
            if (entries.containsKey(descriptor.name())) {
                throw new IllegalStateException("Two tools are named '" + descriptor.name() + "'; tool names must be unique");
            }
            Map<String, Entry> next = new TreeMap<>(entries);
            next.put(descriptor.name(), entry);
            entries = Collections.unmodifiableMap(next);
        }
        notifyListeners(new Change(Set.of(descriptor.name()), Set.of(), Set.of()));
    }

    /**
     * Replaces every tool of {@code group} with {@code registrations} and the group's toolsets with
     * {@code groupToolsets}, in one step: a caller sees the old group or the new one, never a mix.
     * Nothing changes when it throws. An empty list removes the group.
     *
     * @throws IllegalStateException if a name is used twice, or by a tool or toolset outside the group
     * @throws IllegalArgumentException if an argument schema is not one the validator supports
     */
    public void replaceGroup(String group, List<ToolRegistration> registrations, List<Toolset> groupToolsets) {
        Map<String, Entry> fresh = new LinkedHashMap<>();
        for (ToolRegistration registration : registrations) {
            ToolDescriptor descriptor = registration.descriptor();
            Entry entry = new Entry(descriptor, CompiledSchema.compile(descriptor.parameters()), registration.factory());
            if (fresh.put(descriptor.name(), entry) != null) {
                throw new IllegalStateException("Two tools are named '" + descriptor.name() + "'; tool names must be unique");
            }
        }
        Change change;
        synchronized (this) {
            Set<String> old = groups.getOrDefault(group, Set.of());
            Map<String, Entry> next = new TreeMap<>(entries);
            next.keySet().removeAll(old);
            for (String name : fresh.keySet()) {
                if (next.containsKey(name)) {
                    throw new IllegalStateException("A tool named '" + name + "' already exists outside '" + group
                            + "'; tool names must be unique");
                }
            }
            Map<String, Toolset> nextToolsets = new TreeMap<>();
            toolsets.forEach((name, toolset) -> {
                if (!toolset.group().equals(group)) {
                    nextToolsets.put(name, toolset);
                }
            });
            for (Toolset toolset : groupToolsets) {
                if (!toolset.group().equals(group)) {
                    throw new IllegalArgumentException("Toolset '" + toolset.name() + "' belongs to group '" + toolset.group()
                            + "', not '" + group + "'");
                }
                if (nextToolsets.putIfAbsent(toolset.name(), toolset) != null) {
                    throw new IllegalStateException(
                            "Two toolsets are named '" + toolset.name() + "'; toolset names must be unique");
                }
            }
            next.putAll(fresh);
            Map<String, Set<String>> nextGroups = new TreeMap<>(groups);
            if (fresh.isEmpty()) {
                nextGroups.remove(group);
            } else {
                nextGroups.put(group, Set.copyOf(fresh.keySet()));
            }
            Set<String> added = new HashSet<>(fresh.keySet());
            added.removeAll(old);
            Set<String> removed = new HashSet<>(old);
            removed.removeAll(fresh.keySet());
            Set<String> replaced = new HashSet<>(old);
            replaced.retainAll(fresh.keySet());
            change = new Change(added, removed, replaced);
            // Toolsets first: a reader that sees a new tool can already find its toolset.
            toolsets = Collections.unmodifiableMap(nextToolsets);
            groups = Collections.unmodifiableMap(nextGroups);
            entries = Collections.unmodifiableMap(next);
        }
        notifyListeners(change);
    }

    /** Calls {@code listener} after every update, on the updating thread; it must not block. */
    public void onChange(Consumer<Change> listener) {
        listeners.add(listener);
    }

    private void notifyListeners(Change change) {
        for (Consumer<Change> listener : listeners) {
            try {
                listener.accept(change);
            } catch (RuntimeException e) {
                Log.warnf(e, "A tool registry listener failed");
            }
        }
    }

    /** The named toolsets, by name. */
    public Map<String, Toolset> toolsets() {
        return toolsets;
    }

    /**
     * The descriptors of the tools in the named toolsets, by name; all tools when {@code names} is
     * empty.
     *
     * @throws UnknownToolsetException naming every unknown toolset
     */
    public List<ToolDescriptor> list(Collection<String> toolsetNames) {
        if (toolsetNames.isEmpty()) {
            return list();
        }
        Map<String, Toolset> known = toolsets;
        List<String> unknown = toolsetNames.stream().filter(name -> !known.containsKey(name)).sorted().toList();
        if (!unknown.isEmpty()) {
            throw new UnknownToolsetException(
                    "Unknown toolset" + (unknown.size() == 1 ? " " : "s ") + String.join(", ", unknown)
                            + "; known: " + (known.isEmpty() ? "none" : String.join(", ", known.keySet())));
        }
        Set<String> names = new HashSet<>();
        toolsetNames.forEach(name -> names.addAll(known.get(name).tools()));
        Map<String, Entry> current = entries;
        return current.values().stream().map(Entry::descriptor).filter(d -> names.contains(d.name())).toList();
    }

    /** Adds a tool that already exists. */
    public void register(Tool tool) {
        register(ToolRegistration.of(tool));
    }

    /** Every descriptor, by name. */
    public List<ToolDescriptor> list() {
        return entries.values().stream().map(Entry::descriptor).toList();
    }

    public Optional<ToolDescriptor> descriptor(String name) {
        return Optional.ofNullable(entries.get(name)).map(Entry::descriptor);
    }

    public boolean contains(String name) {
        return entries.containsKey(name);
    }

    /** The named tool, built on first request. */
    public Optional<Tool> tool(String name) {
        return Optional.ofNullable(entries.get(name)).map(Entry::tool);
    }

    /** Whether the named tool has been built yet. */
    public boolean isBuilt(String name) {
        Entry entry = entries.get(name);
        return entry != null && entry.built != null;
    }

    /**
     * Descriptors that mention the words of {@code query}, best first: a match in the name counts
     * most, then tags, title and namespace, then the description.
     */
    public List<ToolDescriptor> search(String query, int limit) {
        String[] words = query.toLowerCase(Locale.ROOT).trim().split("\\s+");
        record Scored(ToolDescriptor descriptor, int score) {
        }
        return entries.values().stream()
                .map(entry -> new Scored(entry.descriptor(), score(entry.descriptor(), words)))
                .filter(scored -> scored.score() > 0)
                .sorted(Comparator.comparingInt(Scored::score).reversed().thenComparing(s -> s.descriptor().name()))
                .limit(limit)
                .map(Scored::descriptor)
                .toList();
    }

    private static int score(ToolDescriptor descriptor, String[] words) {
        int score = 0;
        String name = descriptor.name().toLowerCase(Locale.ROOT);
        for (String word : words) {
            if (word.isEmpty()) {
                continue;
            }
            if (name.equals(word)) {
                score += 100;
            } else if (name.contains(word)) {
                score += 50;
            }
            if (descriptor.metadata().tags().stream().anyMatch(tag -> tag.toLowerCase(Locale.ROOT).contains(word))) {
                score += 30;
            }
            if (descriptor.metadata().title().toLowerCase(Locale.ROOT).contains(word)
                    || descriptor.metadata().namespace().map(n -> n.toLowerCase(Locale.ROOT).contains(word)).orElse(false)) {
                score += 20;
            }
            if (descriptor.description().toLowerCase(Locale.ROOT).contains(word)) {
                score += 10;
            }
        }
        return score;
    }

    /** Package-private view used by the executor: descriptor, compiled schema, lazy tool. */
    Optional<Entry> entry(String name) {
        return Optional.ofNullable(entries.get(name));
    }

    static final class Entry {
        private final ToolDescriptor descriptor;
        private final CompiledSchema schema;
        private final Supplier<? extends Tool> factory;
        private final Set<String> required;
        private volatile Tool built;

        Entry(ToolDescriptor descriptor, CompiledSchema schema, Supplier<? extends Tool> factory) {
            this.descriptor = descriptor;
            this.schema = schema;
            this.factory = factory;
            Set<String> names = new HashSet<>();
            descriptor.parameters().path("required").forEach(name -> names.add(name.asText()));
            this.required = Set.copyOf(names);
        }

        /** Names of the required top-level arguments. */
        Set<String> required() {
            return required;
        }

        ToolDescriptor descriptor() {
            return descriptor;
        }

        CompiledSchema schema() {
            return schema;
        }

        Tool tool() {
            Tool current = built;
            if (current == null) {
                synchronized (this) {
                    current = built;
                    if (current == null) {
                        current = factory.get();
                        built = current;
                    }
                }
            }
            return current;
        }
    }
}
