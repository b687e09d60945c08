package io.sqlagent.workspace.vector;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;

/**
 * Turns text into vectors for the vector tools: by default all-MiniLM-L6-v2 running in-process
 * from its Maven artifact (ONNX, quantized unless {@code sqlagent.vector.local-model} says otherwise;
 * works offline), loaded on first use; or the OpenAI-compatible endpoint configured for
 * quarkus-langchain4j. Blocking: call it from a worker thread.
 */
@Singleton
public class Embeddings {

    private final String kind;
    /** The in-process model's name ({@link InProcessModel}), whatever {@code kind} is. */
    private final String localModel;
    private final Instance<EmbeddingModel> configured;
    private volatile EmbeddingModel model;

    @Inject
    Embeddings(VectorConfig config, Instance<EmbeddingModel> configured) {
        this(config.embedding(), config.localModel(), configured);
    }

    private Embeddings(String kind, String localModel, Instance<EmbeddingModel> configured) {
        this.kind = kind.trim().toLowerCase(java.util.Locale.ROOT);
        if (!this.kind.equals("local") && !this.kind.equals("openai")) {
            throw new IllegalArgumentException("sqlagent.vector.embedding must be local or openai, was '" + kind + "'");
        }
        this.localModel = InProcessModel.checked(localModel);
        this.configured = configured;
    }

    /** The default in-process model alone, outside CDI (tests, benchmarks). */
    public static Embeddings inProcess() {
        return inProcess(InProcessModel.QUANTIZED);
    }

    /** The in-process model {@code model} ({@link InProcessModel#QUANTIZED} or {@link InProcessModel#FLOAT}) alone. */
    public static Embeddings inProcess(String model) {
        return new Embeddings("local", model, null);
    }

    /**
     * The configured in-process model, whatever {@code sqlagent.vector.embedding} says: schema search and learnings
     * embed in-process, their vectors never leave the service.
     */
    public Embeddings local() {
        return isLocal() ? this : inProcess(localModel);
    }

    /** Whether the vectors come from the in-process model. */
    public boolean isLocal() {
        return kind.equals("local");
    }

    /** What the vectors come from, recorded with each collection: a collection is searched with the model that filled it. */
    public String name() {
        return isLocal() ? localModel : "openai";
    }

    public float[] embed(String text) {
        return embedAll(List.of(text)).get(0);
    }

    public List<float[]> embedAll(List<String> texts) {
        List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
        List<Embedding> embeddings = model().embedAll(segments).content();
        List<float[]> vectors = new ArrayList<>(embeddings.size());
        embeddings.forEach(embedding -> vectors.add(embedding.vector()));
        return vectors;
    }

    /**
     * quarkus-langchain4j also offers the in-process model it finds on the class path as an
     * {@code EmbeddingModel} bean; the remote one is the bean that is not an in-process model.
     */
    private EmbeddingModel remote() {
        for (Instance.Handle<EmbeddingModel> handle : configured.handles()) {
            boolean inProcess = handle.getBean().getTypes().stream()
                    .anyMatch(type -> type instanceof Class<?> c && AbstractInProcessEmbeddingModel.class.isAssignableFrom(c));
            if (!inProcess) {
                return handle.get();
            }
        }
        throw new IllegalStateException("sqlagent.vector.embedding=openai, but no OpenAI embedding model is configured "
                + "(quarkus.langchain4j.openai.embedding-model.model-name)");
    }

    private EmbeddingModel model() {
        EmbeddingModel current = model;
        if (current == null) {
            synchronized (this) {
                current = model;
                if (current == null) {
                    current = isLocal() ? InProcessModel.get(localModel) : remote();
                    model = current;
                }
            }
        }
        return current;
    }
}
