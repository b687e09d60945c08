package io.sqlagent.workspace.vector;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.output.Response;
import io.quarkus.logging.Log;

/**
 * all-MiniLM-L6-v2 run in-process from the ONNX file and tokenizer its langchain4j artifact ships, with ONNX Runtime
 * set for a small resident footprint. One instance per model and class loader: the vector tools, schema search and
 * learnings share it.
 */
public final class InProcessModel extends AbstractInProcessEmbeddingModel {

    /** The 8-bit quantized model: a quarter of the float one's weights, and the default. */
    public static final String QUANTIZED = "all-minilm-l6-v2-q";
    /** The float model, for collections and learnings embedded with it before. */
    public static final String FLOAT = "all-minilm-l6-v2";

    private static final Map<String, InProcessModel> LOADED = new ConcurrentHashMap<>();
    /** Threads of each of the two pools below: one per core. */
    static final int RUNS = Math.max(1, Runtime.getRuntime().availableProcessors());
    /**
     * A list of at most this many texts is a question's (a search's query, its words), run on {@link #ASKED}. Schema
     * search looks up at most as many words of a question ({@code WordMeanings.MOST_PER_QUESTION}): raise both together,
     * or a question's words wait behind the bulk lists.
     */
    static final int ASKED_TEXTS = 8;
    /**
     * The threads a question's texts are embedded on, whoever asks. A run allocates its activations in native memory,
     * and the C allocator keeps what a thread freed in that thread's own arena: with runs on the callers' threads,
     * sixty-four searches at once took the process from 340 to 740 MB resident. The base class runs a list on a pool of
     * its own but a single text on the caller's thread, and bounds neither across callers.
     */
    private static final ExecutorService ASKED = pool("sqlagent-embedding");
    /**
     * The threads longer lists are embedded on (an index build's batches, a thousand documents of {@code vector_manage}),
     * apart from {@link #ASKED}, so that a question never waits behind them.
     */
    private static final ExecutorService BULK = pool("sqlagent-embedding-bulk");

    private final String name;
    private final OnnxBertBiEncoder encoder;

    private InProcessModel(String name, OnnxBertBiEncoder encoder) {
        // The base class's own pool goes unused: embedAll runs every text on ASKED or BULK.
        super(null);
        this.name = name;
        this.encoder = encoder;
    }

    /** The model {@code name} ({@link #QUANTIZED} or {@link #FLOAT}), loaded on the first call. Blocking. */
    public static InProcessModel get(String name) {
        String model = checked(name);
        return LOADED.computeIfAbsent(model, InProcessModel::load);
    }

    /** {@code name} in lower case when it is a model this class runs; an error naming the choices otherwise. */
    static String checked(String name) {
        String model = name.trim().toLowerCase(Locale.ROOT);
        if (!model.equals(QUANTIZED) && !model.equals(FLOAT)) {
            throw new IllegalArgumentException("sqlagent.vector.local-model must be " + QUANTIZED + " or " + FLOAT
                    + ", was '" + name + "'");
        }
        return model;
    }

    /** The model's name, as collections record it. */
    public String name() {
        return name;
    }

    @Override
    protected OnnxBertBiEncoder model() {
        return encoder;
    }

    /**
     * The texts' vectors, in order: made on {@link #ASKED} for a list of at most {@link #ASKED_TEXTS}, else on
     * {@link #BULK}, so no more than twice {@link #RUNS} runs at once over all callers.
     */
    @Override
    public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
        ExecutorService pool = segments.size() <= ASKED_TEXTS ? ASKED : BULK;
        List<CompletableFuture<Embedding>> running = new ArrayList<>(segments.size());
        for (TextSegment segment : segments) {
            running.add(CompletableFuture.supplyAsync(() -> super.embedAll(List.of(segment)).content().get(0), pool));
        }
        List<Embedding> embeddings = new ArrayList<>(segments.size());
        for (CompletableFuture<Embedding> future : running) {
            try {
                embeddings.add(future.join());
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        return Response.from(embeddings);
    }

    private static InProcessModel load(String name) {
        long started = System.nanoTime();
        try (InputStream tokenizer = resource(name + "-tokenizer.json")) {
            OrtEnvironment environment = OrtEnvironment.getEnvironment();
            OrtSession session = session(environment, name);
            InProcessModel model = new InProcessModel(name,
                    new OnnxBertBiEncoder(environment, session, tokenizer, PoolingMode.MEAN));
            Log.infof("Embedding model %s ready in %d ms", name, (System.nanoTime() - started) / 1_000_000);
            return model;
        } catch (IOException e) {
            throw new UncheckedIOException("Embedding model " + name + " could not be read", e);
        } catch (OrtException e) {
            throw new IllegalStateException("Embedding model " + name + " could not be loaded: " + e.getMessage(), e);
        }
    }

    /**
     * The ONNX session, from a temporary copy of the model file: from a file ONNX Runtime reads the weights straight
     * into native memory, where an in-memory model would first take its size again on the Java heap, which the heap
     * keeps once grown.
     */
    private static OrtSession session(OrtEnvironment environment, String name) throws IOException, OrtException {
        Path file = Files.createTempFile("sqlagent-" + name, ".onnx");
        try (InputStream model = resource(name + ".onnx"); OrtSession.SessionOptions options = options()) {
            Files.copy(model, file, StandardCopyOption.REPLACE_EXISTING);
            return environment.createSession(file.toString(), options);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Options for a small footprint. The arena would keep the largest batch's activations for the life of the process
     * (an index build's, hundreds of MB) and the memory pattern plans buffers per input shape; without them a call
     * allocates what it needs and frees it after. One thread per run: {@link #embedAll} already runs texts on
     * one thread per core, and ONNX's own pool would spin beside it.
     */
    private static OrtSession.SessionOptions options() throws OrtException {
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.setCPUArenaAllocator(false);
        options.setMemoryPatternOptimization(false);
        options.setIntraOpNumThreads(1);
        options.setInterOpNumThreads(1);
        return options;
    }

    /** {@link #RUNS} threads named {@code name}, each ending after a minute without work. */
    private static ExecutorService pool(String name) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(RUNS, RUNS, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
                runnable -> {
                    Thread thread = new Thread(runnable, name);
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private static InputStream resource(String file) throws IOException {
        InputStream stream = InProcessModel.class.getClassLoader().getResourceAsStream(file);
        if (stream == null) {
            throw new IOException(file + " is not on the class path (the langchain4j-embeddings-" + file.replaceAll(
                    "(-tokenizer)?\\.(json|onnx)$", "") + " artifact)");
        }
        return stream;
    }
}
