package io.sqlagent.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.TestFiles;
import io.sqlagent.tool.Tool;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolResult;
import io.sqlagent.workspace.PolicyManifest;
import io.sqlagent.workspace.vector.Embeddings;
import io.sqlagent.workspace.vector.VectorManageTool;
import io.sqlagent.workspace.vector.VectorSearchTool;
import io.sqlagent.workspace.vector.VectorStore;

/**
 * How fast {@code vector_search} answers over a large collection, through the tools themselves
 * (argument binding, the policy check, Lucene's HNSW search, the result). The collection is built
 * with given vectors (clustered random unit vectors of the model's 384 dimensions): embedding
 * 100,000 texts in-process would take far longer than searching them, and the index does not
 * care where its vectors came from. Text queries, embedded by the in-process model, are timed
 * apart. Run by {@code bench/vector-search.sh}; see docs/benchmarks.md.
 */
public final class VectorSearchBench {

    private static final int DIMENSION = 384;
    private static final int CLUSTERS = 200;

    private VectorSearchBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int documents = Integer.parseInt(options.getOrDefault("documents", "100000"));
        int queries = Integer.parseInt(options.getOrDefault("queries", "2000"));
        int rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
        int textQueries = Integer.parseInt(options.getOrDefault("text-queries", "200"));
        int topK = Integer.parseInt(options.getOrDefault("top-k", "10"));
        Path dir = Path.of(options.getOrDefault("dir", "target/vector-bench")).toAbsolutePath();
        TestFiles.deleteTree(dir);
        Files.createDirectories(dir);

        PolicyManifest policy = new PolicyManifest(dir.resolve("policy.yaml"), List.of(), List.of(), List.of(), List.of("*"),
                List.of("*"), new PolicyManifest.Limits(100, 1 << 20, topK, 1000, 30));
        VectorStore store = new VectorStore(dir.resolve("vectors"));
        Embeddings embeddings = Embeddings.inProcess();
        VectorManageTool manage = new VectorManageTool(policy, store, embeddings);
        VectorSearchTool search = new VectorSearchTool(policy, store, embeddings);
        Random random = new Random(42);
        float[][] centres = new float[CLUSTERS][];
        for (int c = 0; c < CLUSTERS; c++) {
            centres[c] = unit(gaussian(random, DIMENSION, 1.0f));
        }

        System.out.printf("Building a collection of %,d documents (%d dimensions) through vector_manage...%n", documents,
                DIMENSION);
        long buildStart = System.nanoTime();
        int batch = 1000;
        for (int start = 0; start < documents; start += batch) {
            ObjectNode arguments = SnakeCaseJson.MAPPER.createObjectNode().put("collection", "bench").put("operation",
                    "insert");
            ArrayNode docs = arguments.putArray("documents");
            for (int i = start; i < Math.min(documents, start + batch); i++) {
                int cluster = random.nextInt(CLUSTERS);
                ObjectNode doc = docs.addObject().put("id", "doc-" + i).put("text", "document " + i + " of cluster " + cluster);
                doc.putObject("metadata").put("cluster", cluster).put("parity", i % 2 == 0 ? "even" : "odd");
                ArrayNode vector = doc.putArray("embedding");
                for (float value : near(random, centres[cluster])) {
                    vector.add(value);
                }
            }
            call(manage, arguments);
        }
        double buildSeconds = (System.nanoTime() - buildStart) / 1e9;
        System.out.printf("Built in %.1f s (%,.0f documents/s); index %,.1f MB on disk%n", buildSeconds,
                documents / buildSeconds,
                size(dir.resolve("vectors/bench")) / 1e6);

        List<Map<String, Object>> roundResults = new ArrayList<>();
        for (int round = 1; round <= rounds + 1; round++) {
            boolean warmup = round == 1;
            long[] vectorNanos = time(search, queries, random, centres, topK, false);
            long[] filteredNanos = time(search, queries / 4, random, centres, topK, true);
            if (warmup) {
                System.out.println("Warm-up round done");
                continue;
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("round", round - 1);
            result.put("query_vector_ms", percentiles(vectorNanos));
            result.put("query_vector_filtered_ms", percentiles(filteredNanos));
            roundResults.add(result);
            System.out.printf(
                    "Round %d: query_vector p50 %.3f ms, p90 %.3f, p99 %.3f; with a metadata filter p50 %.3f, p99 %.3f%n",
                    round - 1, pct(vectorNanos, 50), pct(vectorNanos, 90), pct(vectorNanos, 99), pct(filteredNanos, 50),
                    pct(filteredNanos, 99));
        }

        long embedStart = System.nanoTime();
        embeddings.embed("warm the model up");
        double modelLoadMs = (System.nanoTime() - embedStart) / 1e6;
        long[] textNanos = new long[textQueries];
        for (int i = 0; i < textQueries; i++) {
            ObjectNode arguments = SnakeCaseJson.MAPPER.createObjectNode().put("collection", "bench")
                    .put("query", "which documents talk about cluster " + random.nextInt(CLUSTERS) + " and its neighbours?")
                    .put("top_k", topK);
            long start = System.nanoTime();
            call(search, arguments);
            textNanos[i] = System.nanoTime() - start;
        }
        System.out.printf("Text queries (embedded in-process, model loaded in %.0f ms): p50 %.2f ms, p90 %.2f, p99 %.2f%n",
                modelLoadMs,
                pct(textNanos, 50), pct(textNanos, 90), pct(textNanos, 99));

        System.gc();
        Thread.sleep(200);
        long heapAfterGc = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        Map<String, Long> process = processMemory();
        System.out.printf("Heap used after GC: %,.1f MB; RSS %,.1f MB (peak %,.1f MB); max heap %s%n", heapAfterGc / 1e6,
                process.getOrDefault("VmRSS", 0L) / 1e3, process.getOrDefault("VmHWM", 0L) / 1e3,
                Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");

        Map<String, Object> report = new LinkedHashMap<>();
        report.put("documents", documents);
        report.put("dimension", DIMENSION);
        report.put("top_k", topK);
        report.put("build_seconds", buildSeconds);
        report.put("index_bytes", size(dir.resolve("vectors/bench")));
        report.put("rounds", roundResults);
        report.put("text_query_ms", percentiles(textNanos));
        report.put("model_load_ms", modelLoadMs);
        report.put("heap_used_after_gc_bytes", heapAfterGc);
        report.put("rss_kb", process.get("VmRSS"));
        report.put("rss_peak_kb", process.get("VmHWM"));
        report.put("processors", Runtime.getRuntime().availableProcessors());
        report.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        Path out = Path.of("target/vector-search.json");
        SnakeCaseJson.MAPPER.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), report);
        System.out.println("Wrote " + out.toAbsolutePath());
        store.close();
    }

    private static long[] time(Tool search, int queries, Random random, float[][] centres, int topK, boolean filtered) {
        long[] nanos = new long[queries];
        for (int i = 0; i < queries; i++) {
            int cluster = random.nextInt(CLUSTERS);
            ObjectNode arguments = SnakeCaseJson.MAPPER.createObjectNode().put("collection", "bench").put("top_k", topK);
            ArrayNode vector = arguments.putArray("query_vector");
            for (float value : near(random, centres[cluster])) {
                vector.add(value);
            }
            if (filtered) {
                arguments.putObject("filters").put("parity", "even");
            }
            long start = System.nanoTime();
            ToolResult result = call(search, arguments);
            nanos[i] = System.nanoTime() - start;
            if (((ToolResult.Success) result).value().path("results").size() != topK) {
                throw new IllegalStateException("a search found fewer than " + topK + " documents");
            }
        }
        return nanos;
    }

    private static ToolResult call(Tool tool, ObjectNode arguments) {
        return tool.invoke(new ToolCall("bench", tool.descriptor().name(), arguments),
                ToolCallContext.of("bench")).await().atMost(Duration.ofMinutes(5));
    }

    private static float[] gaussian(Random random, int n, float sigma) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) random.nextGaussian() * sigma;
        }
        return v;
    }

    private static float[] near(Random random, float[] centre) {
        float[] noise = gaussian(random, centre.length, 0.05f);
        for (int i = 0; i < noise.length; i++) {
            noise[i] += centre[i];
        }
        return unit(noise);
    }

    private static float[] unit(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        float scale = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= scale;
        }
        return v;
    }

    private static double pct(long[] nanos, int percentile) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
    }

    private static Map<String, Double> percentiles(long[] nanos) {
        Map<String, Double> map = new LinkedHashMap<>();
        map.put("p50", pct(nanos, 50));
        map.put("p90", pct(nanos, 90));
        map.put("p99", pct(nanos, 99));
        map.put("max", pct(nanos, 100));
        return map;
    }

    private static Map<String, Long> processMemory() throws IOException {
        Map<String, Long> values = new LinkedHashMap<>();
        Path status = Path.of("/proc/self/status");
        if (Files.exists(status)) {
            for (String line : Files.readAllLines(status)) {
                String[] parts = line.split("\\s+");
                if ((line.startsWith("VmRSS:") || line.startsWith("VmHWM:")) && parts.length >= 2) {
                    values.put(parts[0].replace(":", ""), Long.parseLong(parts[1]));
                }
            }
        }
        return values;
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }
}
