package io.sqlagent.agent.loop;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.langchain4j.agent.tool.ToolSpecification;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolRegistry;

/**
 * The specifications offered to the model, built once per registry version rather than for every run: a
 * descriptor's specification is made when it is first offered and kept until the registry changes (a tool
 * added, removed or replaced), which empties the cache. Keyed by the descriptor instance, which the registry
 * keeps until it replaces the tool and which never changes, so an entry is never stale and a lookup never
 * hashes a schema; emptying on change only drops the specifications of replaced tools.
 */
public final class ToolSpecificationCache {

    /** Copied on write: runs read it without a lock. */
    private volatile Map<ToolDescriptor, ToolSpecification> built = new IdentityHashMap<>();

    public ToolSpecificationCache(ToolRegistry registry) {
        registry.onChange(change -> clear());
    }

    /** The specifications of {@code descriptors}, in order. */
    public List<ToolSpecification> of(List<ToolDescriptor> descriptors) {
        Map<ToolDescriptor, ToolSpecification> known = built;
        List<ToolSpecification> specifications = new ArrayList<>(descriptors.size());
        Map<ToolDescriptor, ToolSpecification> added = null;
        for (ToolDescriptor descriptor : descriptors) {
            ToolSpecification specification = known.get(descriptor);
            if (specification == null) {
                specification = ToolSpecifications.of(descriptor);
                if (added == null) {
                    added = new IdentityHashMap<>();
                }
                added.put(descriptor, specification);
            }
            specifications.add(specification);
        }
        if (added != null) {
            remember(added);
        }
        return List.copyOf(specifications);
    }

    private synchronized void remember(Map<ToolDescriptor, ToolSpecification> added) {
        Map<ToolDescriptor, ToolSpecification> next = new IdentityHashMap<>(built);
        next.putAll(added);
        built = next;
    }

    private synchronized void clear() {
        built = new IdentityHashMap<>();
    }
}
