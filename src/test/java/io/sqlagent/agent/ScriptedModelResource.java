package io.sqlagent.agent;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** Starts a {@link ScriptedOpenAiServer} for a test class and points the OpenAI client at it. */
public class ScriptedModelResource implements QuarkusTestResourceLifecycleManager {

    private String timeout = "5s";

    /** The running server, for tests to script (one test class at a time uses it). */
    public static volatile ScriptedOpenAiServer server;

    /** Init arg {@code timeout}: the client's timeout (default 5s). */
    @Override
    public void init(Map<String, String> initArgs) {
        timeout = initArgs.getOrDefault("timeout", timeout);
    }

    @Override
    public Map<String, String> start() {
        try {
            server = ScriptedOpenAiServer.start();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("could not start the scripted OpenAI server", e);
        }
        return Map.of(
                "quarkus.langchain4j.openai.base-url", server.baseUrl(),
                "quarkus.langchain4j.openai.api-key", "test-key-not-secret",
                "quarkus.langchain4j.openai.chat-model.model-name", "scripted-model",
                "quarkus.langchain4j.openai.timeout", timeout,
                "quarkus.langchain4j.openai.max-retries", "1");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close();
        }
    }
}
