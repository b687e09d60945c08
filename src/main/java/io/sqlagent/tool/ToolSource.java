package io.sqlagent.tool;

import java.util.List;

/**
 * A CDI bean that contributes tools to the registry at start-up (YAML-declared tools, workspace
 * tools); tools written as {@link TypedTool} beans need no source, the registry finds them.
 */
public interface ToolSource {

    /** The tools this source contributes. */
    List<ToolRegistration> registrations();
}
