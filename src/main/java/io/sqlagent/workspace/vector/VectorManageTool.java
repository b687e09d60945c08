package io.sqlagent.workspace.vector;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ValueNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.jsonschema.Violation;
import io.sqlagent.tool.ToolArgumentsException;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolRefusedException;
import io.sqlagent.tool.TypedTool;
import io.sqlagent.workspace.PolicyManifest;

/**
 * {@code vector_manage}: inserts, updates or deletes documents of a collection the policy lets
 * the caller write ({@code policy.data.vector.allow_write}; reading needs {@code allow} besides).
 * Text is embedded unless the document brings its embedding; missing ids are generated. Changes
 * of one call are checked whole before any is written, then committed together.
 */
@ToolDefinition(name = "vector_manage", title = "Manage vectors", namespace = "workspace", tags = { "vector", "insert",
        "delete" }, auditArguments = false, blocking = true, description = "Insert, update, or delete documents in a local vector database collection.", returns = "{\"collection\",\"operation\",\"inserted\"|\"updated\"|\"deleted\":n,\"ids\":[...],\"not_found\":[...]?}", usage = "documents are {\"id\"?, \"text\", \"metadata\"?, \"embedding\"?}; metadata values are strings, numbers or "
                + "booleans; insert creates the collection; update replaces documents by id; delete takes ids.")
public class VectorManageTool extends TypedTool<VectorManageTool.Arguments> {

    private static final int MAX_DOCUMENTS = 1000;
    private static final String ID = "^[^\\p{Cntrl}]{1,200}$";

    private final PolicyManifest policy;
    private final VectorStore store;
    private final Embeddings embeddings;

    public VectorManageTool(PolicyManifest policy, VectorStore store, Embeddings embeddings) {
        this.policy = policy;
        this.store = store;
        this.embeddings = embeddings;
    }

    /** The three operations. */
    public enum Operation {
        INSERT,
        UPDATE,
        DELETE
    }

    /** Arguments of {@code vector_manage}. */
    public record Arguments(
            @Param(description = "Path to the vector collection.", pattern = VectorStore.NAME_PATTERN) String collection,
            @Param(description = "Operation to perform.") Operation operation,
            @Param(description = "Documents with text and optional metadata.", minItems = 1, maxItems = MAX_DOCUMENTS) Optional<List<Document>> documents,
            @Param(description = "Document IDs (for update/delete).", minItems = 1, maxItems = MAX_DOCUMENTS) Optional<List<String>> ids) {
    }

    /**
     * One document to insert or update. Declared as a record so the executor checks every field
     * against its schema, like any other argument, before the tool runs: a bad document is the
     * usual invalid-arguments error naming its path ({@code documents[2].embedding[1]}).
     */
    public record Document(
            @Param(description = "Document ID; generated on insert when left out, required on update.", pattern = ID) Optional<String> id,
            @Param(description = "The text, embedded unless an embedding is given.", pattern = "\\S") String text,
            @Param(description = "Metadata whose values are strings, numbers or booleans.") Optional<Map<String, ValueNode>> metadata,
            @Param(description = "The document's own embedding, stored as given.", minItems = 1, maxItems = 4096) Optional<List<Float>> embedding) {
    }

    @Override
    protected Uni<?> run(Arguments arguments, ToolCallContext context) {
        String name = arguments.collection();
        if (!PolicyManifest.matches(policy.vectorWrite(), name)) {
            throw new ToolRefusedException("'" + name + "' is not a collection vector_manage may change "
                    + "(policy.data.vector.allow_write in the workspace policy)");
        }
        return switch (arguments.operation()) {
            case INSERT -> insert(name, documents(arguments, true));
            case UPDATE -> update(name, documents(arguments, false));
            case DELETE -> delete(name, arguments.ids()
                    .orElseThrow(() -> new ToolException("delete needs ids: the documents to delete")));
        };
    }

    private List<Document> documents(Arguments arguments, boolean insert) {
        List<Document> documents = arguments.documents().orElseThrow(() -> new ToolException(
                arguments.operation().name().toLowerCase(java.util.Locale.ROOT) + " needs documents: [{\"id\""
                        + (insert ? "?" : "")
                        + ", \"text\", \"metadata\"?, \"embedding\"?}]"));
        if (arguments.ids().isPresent()) {
            throw new ToolException("ids are for delete; give each document's id inside the document");
        }
        return documents;
    }

    /** Runs on a worker thread (the tool is blocking): the texts are embedded before anything is written. */
    private Uni<Map<String, Object>> insert(String name, List<Document> documents) {
        List<VectorCollection.Entry> entries = entries(documents, true);
        return store.insert(name, new VectorCollection.Info(entries.get(0).vector().length, embeddings.name()), entries)
                .map(written -> answer(name, "insert", "inserted", written.ids()));
    }

    private Uni<Map<String, Object>> update(String name, List<Document> documents) {
        List<VectorCollection.Entry> entries = entries(documents, false);
        return store.update(name, entries)
                .map(written -> answer(name, "update", "updated", written.ids()));
    }

    private Uni<Map<String, Object>> delete(String name, List<String> ids) {
        return store.delete(name, ids)
                .map(written -> {
                    Map<String, Object> answer = answer(name, "delete", "deleted", written.ids());
                    answer.put("not_found", ids.stream().distinct().filter(id -> !written.ids().contains(id)).toList());
                    return answer;
                });
    }

    private static Map<String, Object> answer(String collection, String operation, String counted, List<String> ids) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("collection", collection);
        answer.put("operation", operation);
        answer.put(counted, ids.size());
        answer.put("ids", ids);
        return answer;
    }

    /**
     * Checks what the schema cannot (ids unique within the call, an id for each update), then
     * embeds the texts that came without a vector, in one batch.
     */
    private List<VectorCollection.Entry> entries(List<Document> documents, boolean insert) {
        List<String> problems = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < documents.size(); i++) {
            Optional<String> id = documents.get(i).id();
            if (id.isEmpty() && !insert) {
                problems.add("documents[" + i + "].id: update needs the id of the document to replace");
            }
            String documentId = id.orElseGet(() -> UUID.randomUUID().toString());
            if (!seen.add(documentId)) {
                problems.add("documents[" + i + "].id: '" + documentId + "' appears twice in this call");
            }
            ids.add(documentId);
        }
        List<Violation> metadataProblems = new ArrayList<>();
        for (int i = 0; i < documents.size(); i++) {
            metadataProblems.addAll(store.metadataLimits().check(i, documents.get(i).metadata().orElse(Map.of())));
        }
        if (!metadataProblems.isEmpty()) {
            throw new ToolArgumentsException("Invalid arguments for tool 'vector_manage': " + metadataProblems.stream()
                    .limit(20).map(v -> v.argument() + " " + v.problem()).collect(Collectors.joining("; ")),
                    metadataProblems);
        }
        if (!problems.isEmpty()) {
            throw new ToolException(
                    "Invalid documents: " + String.join("; ", problems.subList(0, Math.min(problems.size(), 20)))
                            + (problems.size() > 20 ? "; and " + (problems.size() - 20) + " more" : ""));
        }
        List<String> toEmbed = documents.stream().filter(document -> document.embedding().isEmpty()).map(Document::text)
                .toList();
        Iterator<float[]> embedded = (toEmbed.isEmpty() ? List.<float[]> of() : embeddings.embedAll(toEmbed)).iterator();
        List<VectorCollection.Entry> entries = new ArrayList<>(documents.size());
        for (int i = 0; i < documents.size(); i++) {
            Document document = documents.get(i);
            float[] vector = document.embedding().map(VectorManageTool::vector).orElseGet(embedded::next);
            ObjectNode metadata = SnakeCaseJson.MAPPER.createObjectNode();
            document.metadata().ifPresent(metadata::setAll);
            entries.add(new VectorCollection.Entry(ids.get(i), document.text(), metadata, vector));
        }
        return entries;
    }

    private static float[] vector(List<Float> values) {
        float[] vector = new float[values.size()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = values.get(i);
        }
        return vector;
    }
}
