package io.sqlagent.agent.model;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;

import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;

/**
 * The agent's model. The service starts and its tools work without one; a chat then gets one
 * error event naming the settings. quarkus-langchain4j refuses to start while the OpenAI key is
 * its own placeholder and the base URL is OpenAI's, so application.properties sets the key to
 * {@value #NO_KEY}: the client is built (it connects to nothing until asked), and this bean
 * treats that key with OpenAI's URL as "no model". A server of your own (Ollama, vLLM, ...)
 * needs only its base URL and model name.
 */
@ApplicationScoped
public class ChatModels {

    static final String NOT_CONFIGURED = "No chat model is configured: set quarkus.langchain4j.openai.api-key "
            + "(QUARKUS_LANGCHAIN4J_OPENAI_API_KEY) for OpenAI, or quarkus.langchain4j.openai.base-url "
            + "(QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL) and quarkus.langchain4j.openai.chat-model.model-name for an "
            + "OpenAI-compatible server such as Ollama or vLLM; or, to try the Chinook demo without one, "
            + "sqlagent.model.replay-file=classpath:replay/chinook.yaml (SQLAGENT_MODEL_REPLAY_FILE), recorded answers";

    /** The key application.properties sets when none is given. */
    static final String NO_KEY = "not-configured";
    private static final String PLACEHOLDER_KEY = "dummy";
    private static final String OPENAI_URL = "https://api.openai.com/v1";

    private final StreamingChatModel model;
    private final boolean configured;
    private final String modelName;
    /** Where the model answers: the model server's host and port, or the replay file. */
    private final String server;
    /** The name the model server gave itself in its last answer (OpenAI's {@code model} field), once it answered. */
    private final AtomicReference<String> answeredAs = new AtomicReference<>();

    /** {@code model} is a client proxy: the client behind it is built on the first call. */
    @Inject
    ChatModels(StreamingChatModel model, Config config, ModelResilience resilience, ModelReplay replay) {
        String key = config.getOptionalValue("quarkus.langchain4j.openai.api-key", String.class).orElse(PLACEHOLDER_KEY).trim();
        String url = config.getOptionalValue("quarkus.langchain4j.openai.base-url", String.class).orElse(OPENAI_URL);
        boolean noKey = key.isEmpty() || NO_KEY.equals(key) || PLACEHOLDER_KEY.equals(key);
        boolean openAi = !noKey || !stripSlash(url).equals(OPENAI_URL);
        Optional<ModelReplay.Replay> replayed = openAi ? Optional.empty() : replay.replay();
        this.configured = openAi || replayed.isPresent();
        this.modelName = replayed.map(ModelReplay.Replay::name).orElseGet(() -> config
                .getOptionalValue("quarkus.langchain4j.openai.chat-model.model-name", String.class).orElse("gpt-4o-mini"));
        this.server = replayed.isPresent() ? null : host(url);
        this.model = new ResilientModel(replayed.<StreamingChatModel> map(r -> new ReplayChatModel(r.script())).orElse(model),
                modelName, resilience, answeredAs);
    }

    /**
     * What answers, as the chat page shows it: the model asked for, the server asked (absent for a replay) and the name
     * that server gave itself in its last answer, which may differ (a server that serves one model whatever the name
     * asked for, a dated version of an alias). Empty when no model is configured.
     */
    public Optional<Answering> answering() {
        return name().map(name -> new Answering(name, Optional.ofNullable(server), Optional.ofNullable(answeredAs.get())));
    }

    /** See {@link #answering()}. */
    public record Answering(String requested, Optional<String> server, Optional<String> answeredAs) {
    }

    /** host[:port] of the model server's URL, as a person recognises it; the URL itself when it cannot be read. */
    private static String host(String url) {
        try {
            URI uri = URI.create(url.trim());
            if (uri.getHost() == null) {
                return url.trim();
            }
            return uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
        } catch (IllegalArgumentException e) {
            return url.trim();
        }
    }

    /** The configured model's name, or empty when no model is configured. */
    public Optional<String> name() {
        return configured ? Optional.of(modelName) : Optional.empty();
    }

    /** What to set when no model is configured. */
    public static String notConfiguredHint() {
        return NOT_CONFIGURED;
    }

    private static String stripSlash(String url) {
        String trimmed = url.trim();
        return trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }

    /** Whether a model is configured. */
    public boolean configured() {
        return configured;
    }

    /** The model, or empty with the reason when none is configured. */
    public Model model() {
        return configured ? new Model(Optional.of(model), null) : new Model(Optional.empty(), NOT_CONFIGURED);
    }

    /** A model, or why there is none. */
    public record Model(Optional<StreamingChatModel> model, String problem) {
    }

    /**
     * The model with its name and its {@link ModelResilience}: {@link ModelTurn} streams each call
     * through {@link ModelResilience#protect}, where a failure before the first piece can be retried.
     * Everything else is the model's own.
     */
    record ResilientModel(StreamingChatModel model, String name, ModelResilience resilience, AtomicReference<String> answeredAs)
            implements
                StreamingChatModel {

        /** Keeps the name the server gave itself in {@code response}, when it gave one. */
        void answered(ChatResponse response) {
            if (response.metadata() != null && response.metadata().modelName() != null
                    && !response.metadata().modelName().isBlank()) {
                answeredAs.set(response.metadata().modelName());
            }
        }

        @Override
        public void chat(ChatRequest request, StreamingChatResponseHandler handler) {
            model.chat(request, handler);
        }

        @Override
        public ChatRequestParameters defaultRequestParameters() {
            return model.defaultRequestParameters();
        }

        @Override
        public List<ChatModelListener> listeners() {
            return model.listeners();
        }

        @Override
        public ModelProvider provider() {
            return model.provider();
        }

        @Override
        public Set<Capability> supportedCapabilities() {
            return model.supportedCapabilities();
        }
    }
}
