package io.sqlagent.agent;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import dev.langchain4j.model.chat.StreamingChatModel;
import io.quarkus.logging.Log;

/**
 * The agent's model, reached lazily: the service starts and its tools work without one, and a
 * chat then gets one error event naming the settings. quarkus-langchain4j refuses to build the
 * OpenAI client while the API key is its placeholder and the base URL is OpenAI's; a server of
 * your own (Ollama, vLLM, ...) needs only the base URL.
 */
@ApplicationScoped
public class ChatModels {

    static final String NOT_CONFIGURED = "No chat model is configured: set quarkus.langchain4j.openai.api-key "
            + "(QUARKUS_LANGCHAIN4J_OPENAI_API_KEY) for OpenAI, or quarkus.langchain4j.openai.base-url "
            + "(QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL) and quarkus.langchain4j.openai.chat-model.model-name for an "
            + "OpenAI-compatible server such as Ollama or vLLM";

    private static final String PLACEHOLDER_KEY = "dummy";
    private static final String OPENAI_URL = "https://api.openai.com/v1";

    private final Instance<StreamingChatModel> models;
    private final boolean configured;

    @Inject
    ChatModels(Instance<StreamingChatModel> models, Config config) {
        this.models = models;
        String key = config.getOptionalValue("quarkus.langchain4j.openai.api-key", String.class).orElse(PLACEHOLDER_KEY);
        String url = config.getOptionalValue("quarkus.langchain4j.openai.base-url", String.class).orElse(OPENAI_URL);
        this.configured = !PLACEHOLDER_KEY.equals(key.trim()) || !stripSlash(url).equals(OPENAI_URL);
    }

    private static String stripSlash(String url) {
        String trimmed = url.trim();
        return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }

    /** Whether a model is configured. */
    public boolean configured() {
        return configured;
    }

    /** The model, or empty (with the reason logged once per call) when none is configured or it cannot be built. */
    public Model model() {
        if (!configured) {
            return new Model(Optional.empty(), NOT_CONFIGURED);
        }
        try {
            StreamingChatModel model = models.get();
            return new Model(Optional.of(model), null);
        } catch (RuntimeException e) {
            // Configuration problems name the property; never a key.
            Log.warnf("The chat model could not be built: %s", e.getMessage());
            return new Model(Optional.empty(), "The chat model could not be built: " + e.getMessage());
        }
    }

    /** A model, or why there is none. */
    public record Model(Optional<StreamingChatModel> model, String problem) {
    }
}
