package io.sqlagent.tool;

import java.util.List;

/**
 * A CDI bean that contributes tools to the registry at start-up (the workspace tools, the knowledge
 * review tools), as langchain4j's {@code ToolProvider} does; tools written as {@link TypedTool} beans
 * need no provider, the registry finds them.
 */
public interface ToolProvider {

    /** The tools this provider contributes. */
    List<ToolRegistration> registrations();
}
