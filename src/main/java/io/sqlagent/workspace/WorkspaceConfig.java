package io.sqlagent.workspace;

import java.nio.file.Path;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/** Where the workspace policy is; without one, no workspace tool is offered. */
@ConfigMapping(prefix = "sqlagent.policy")
public interface WorkspaceConfig {

    /** The policy manifest (YAML); relative paths inside it are resolved against its directory. */
    Optional<Path> path();
}
