package io.sqlagent.tool;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import io.quarkus.logging.Log;
import io.sqlagent.tool.schema.CompiledSchema;

/**
 * Every tool the service offers, by name. Tools are registered by descriptor and built lazily on
 * their first call, so listing, describing and searching never build one. {@link TypedTool} beans
 * are found automatically; other tools arrive through {@link ToolSource} beans or
 * {@link #register(ToolRegistration)}.
 */
@ApplicationScoped
public class ToolRegistry {

    private final Map<String, Entry> entries = new ConcurrentSkipListMap<>();

    @Inject
    ToolRegistry(@Any Instance<Tool> toolBeans, @Any Instance<ToolSource> sources) {
        // Handles expose each bean's class without creating the bean.
        for (Instance.Handle<Tool> handle : toolBeans.handles()) {
            register(registrationOf(handle.getBean().getBeanClass(), toolBeans));
        }
        for (ToolSource source : sources) {
            source.registrations().forEach(this::register);
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

    /**
     * Adds a tool.
     *
     * @throws IllegalStateException if the name is taken
     * @throws IllegalArgumentException if the argument schema is not one the validator supports
     */
    public void register(ToolRegistration registration) {
        ToolDescriptor descriptor = registration.descriptor();
        Entry entry = new Entry(descriptor, CompiledSchema.compile(descriptor.parameters()), registration.factory());
        if (entries.putIfAbsent(descriptor.name(), entry) != null) {
            throw new IllegalStateException("Two tools are named '" + descriptor.name() + "'; tool names must be unique");
        }
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

    /** The named tools as a collection (building them); unknown names are ignored. */
    public Tools tools(List<String> names) {
        List<Tool> found = new ArrayList<>();
        for (String name : names) {
            tool(name).ifPresent(found::add);
        }
        return Tools.of(found);
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
