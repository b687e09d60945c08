package io.sqlagent.agent;

/**
 * A run took longer than {@code sqlagent.agent.timeout}. It lives beside {@link AgentConfig} rather than in the loop
 * that throws it so that the model client's error mapping can name it without depending on the loop.
 */
public final class RunTimeout extends RuntimeException {

    public RunTimeout() {
        super("run timeout", null, false, false);
    }
}
