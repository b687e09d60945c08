package io.sqlagent.workspace;

import java.util.List;
import java.util.Optional;

import jakarta.inject.Singleton;

import io.quarkus.logging.Log;
import io.quarkus.runtime.Startup;
import io.sqlagent.tool.ToolProvider;
import io.sqlagent.tool.ToolRegistration;
import io.sqlagent.tool.TypedTool;
import io.sqlagent.workspace.vector.Embeddings;
import io.sqlagent.workspace.vector.VectorManageTool;
import io.sqlagent.workspace.vector.VectorSearchTool;
import io.sqlagent.workspace.vector.VectorStore;

/**
 * Contributes the workspace tools ({@code sql_query}, {@code read_file}, {@code write_file},
 * {@code vector_search}, {@code vector_manage}) when
 * a policy manifest is configured, and none without one. The manifest is read at start-up: a bad
 * one stops the service with every problem listed by file and line.
 */
@Singleton
@Startup
public class WorkspaceTools implements ToolProvider {

    private final Optional<PolicyManifest> policy;
    private final VectorStore vectors;
    private final Embeddings embeddings;

    WorkspaceTools(WorkspaceConfig config, VectorStore vectors, Embeddings embeddings) {
        this.vectors = vectors;
        this.embeddings = embeddings;
        this.policy = config.path().map(PolicyManifest::load);
        policy.ifPresentOrElse(
                manifest -> Log.infof("Workspace policy %s: SQLite %s, read %s, write %s", manifest.file(), manifest.sqlite(),
                        manifest.readDirs(), manifest.writeDirs()),
                () -> Log.debug("No workspace policy (sqlagent.policy.path): no workspace tools"));
    }

    /** The policy in effect, if any. */
    public Optional<PolicyManifest> policy() {
        return policy;
    }

    @Override
    public List<ToolRegistration> registrations() {
        return policy.map(manifest -> List.of(
                new ToolRegistration(TypedTool.describe(SqlQueryTool.class), () -> new SqlQueryTool(manifest)),
                new ToolRegistration(TypedTool.describe(ReadFileTool.class), () -> new ReadFileTool(manifest)),
                new ToolRegistration(TypedTool.describe(WriteFileTool.class), () -> new WriteFileTool(manifest)),
                new ToolRegistration(TypedTool.describe(VectorSearchTool.class),
                        () -> new VectorSearchTool(manifest, vectors, embeddings)),
                new ToolRegistration(TypedTool.describe(VectorManageTool.class),
                        () -> new VectorManageTool(manifest, vectors, embeddings))))
                .orElse(List.of());
    }
}
