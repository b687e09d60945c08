package io.sqlagent.tool;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a tool says about itself besides its name, description and schema: shown in full
 * descriptors and used by policies. Later capabilities add their own keys to {@code extra}.
 *
 * @param title a short human title
 * @param tags words to find the tool by
 * @param namespace the group the tool belongs to (for example {@code sql} or {@code workspace})
 * @param readOnly whether the tool never changes anything; read-only calls of one batch may run concurrently
 * @param auditArguments whether the audit log records the call's arguments, not only its outcome
 * @param extra further metadata, by key
 */
public record ToolMetadata(String title, List<String> tags, Optional<String> namespace, boolean readOnly,
        boolean auditArguments, Map<String, Object> extra) {

    public ToolMetadata {
        tags = List.copyOf(tags);
        extra = Map.copyOf(extra);
    }

    /** Metadata with only a title; not read-only, arguments not audited. */
    public static ToolMetadata titled(String title) {
        return new ToolMetadata(title, List.of(), Optional.empty(), false, false, Map.of());
    }

    public ToolMetadata withTags(String... newTags) {
        return new ToolMetadata(title, List.of(newTags), namespace, readOnly, auditArguments, extra);
    }

    public ToolMetadata withNamespace(String newNamespace) {
        return new ToolMetadata(title, tags, Optional.ofNullable(newNamespace), readOnly, auditArguments, extra);
    }

    public ToolMetadata withReadOnly(boolean newReadOnly) {
        return new ToolMetadata(title, tags, namespace, newReadOnly, auditArguments, extra);
    }

    public ToolMetadata withAuditArguments(boolean newAuditArguments) {
        return new ToolMetadata(title, tags, namespace, readOnly, newAuditArguments, extra);
    }
}
