package io.sqlagent.agent;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceConfigurableLifecycleManager;

/**
 * Starts a {@link ScriptedOpenAiServer} for the application under test and points the OpenAI client at it; a test
 * class asks for it with {@link ScriptedModel}.
 */
public class ScriptedModelResource implements QuarkusTestResourceConfigurableLifecycleManager<ScriptedModel> {

    private String timeout = "5s";

    /** The running server (one application at a time uses it); tests read it from {@link ScriptedModelExtension}. */
    static volatile ScriptedOpenAiServer server;

    @Override
    public void init(ScriptedModel model) {
        timeout = model.timeout();
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
