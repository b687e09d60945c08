package io.sqlagent.workspace.vector;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.TypedTool;
import io.sqlagent.workspace.PolicyManifest;

/**
 * {@code vector_search}: the documents of a collection nearest to a text (embedded with the
 * collection's model) or to a given vector, best first, scores from 0 to 1, optionally only those
 * whose metadata equals every filter. Searching needs the collection in {@code policy.data.vector.allow}.
 */
@ToolDefinition(name = "vector_search", title = "Vector search", namespace = "workspace", tags = { "vector", "search",
        "semantic" }, readOnly = true, auditArguments = true, blocking = true, description = "Search a local vector database collection by semantic similarity.", returns = "{\"results\":[{\"id\",\"text\",\"metadata\",\"score\"}]}; score is cosine similarity mapped to 0-1, best first", usage = "collection is a collection name (letters, digits, '.', '_', '-'); give query or query_vector; "
                + "filters match metadata values exactly, e.g. {\"type\": \"running\"}.")
public class VectorSearchTool extends TypedTool<VectorSearchTool.Arguments> {

    private final PolicyManifest policy;
    private final VectorStore store;
    private final Embeddings embeddings;

    public VectorSearchTool(PolicyManifest policy, VectorStore store, Embeddings embeddings) {
        this.policy = policy;
        this.store = store;
        this.embeddings = embeddings;
    }

    /** Arguments of {@code vector_search}. */
    public record Arguments(
            @Param(description = "Path to the vector collection.", pattern = VectorStore.NAME_PATTERN) String collection,
            @Param(description = "Text to search for (auto-embedded).", minLength = 1, maxLength = 10_000) Optional<String> query,
            @Param(description = "Raw embedding vector (alternative to text query).", minItems = 1, maxItems = 4096) Optional<List<Float>> queryVector,
            @Param(description = "Number of results to return.", minimum = 1, maximum = 1000) Optional<Integer> topK,
            @Param(description = "Metadata filters.") Optional<ObjectNode> filters) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        return Uni.createFrom().item(() -> search(arguments));
    }

    private Map<String, Object> search(Arguments arguments) {
        if (!PolicyManifest.matches(policy.vectorRead(), arguments.collection())) {
            throw new ToolRefusedException("'" + arguments.collection() + "' is not a collection vector_search may search "
                    + "(policy.data.vector.allow in the workspace policy)");
        }
        if (arguments.query().isPresent() == arguments.queryVector().isPresent()) {
            throw new ToolException("Give either query (text) or query_vector (numbers), not "
                    + (arguments.query().isPresent() ? "both" : "neither"));
        }
        VectorCollection collection = store.searchable(arguments.collection());
        float[] vector;
        if (arguments.query().isPresent()) {
            if (!collection.info().embedding().equals(embeddings.name())) {
                throw new ToolException(
                        "Collection '" + arguments.collection() + "' was embedded with " + collection.info().embedding()
                                + " but the service embeds with " + embeddings.name() + "; search it with query_vector");
            }
            vector = embeddings.embed(arguments.query().get());
        } else {
            List<Float> values = arguments.queryVector().get();
            vector = new float[values.size()];
            for (int i = 0; i < vector.length; i++) {
                vector[i] = values.get(i);
            }
        }
        int k = Math.min(arguments.topK().orElse(policy.limits().defaultTopK()), policy.limits().maxTopK());
        try {
            List<Map<String, Object>> results = collection.search(vector, k, arguments.filters().orElse(null)).stream()
                    .map(VectorSearchTool::result).toList();
            return Map.of("results", results);
        } catch (IOException e) {
            throw new ToolException("Collection '" + arguments.collection() + "' cannot be searched: " + e.getMessage());
        }
    }

    private static Map<String, Object> result(VectorCollection.Hit hit) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("id", hit.id());
        result.put("text", hit.text());
        result.put("metadata", hit.metadata());
        result.put("score", Math.round(hit.score() * 10_000) / 10_000.0);
        return result;
    }
}
