package io.sqlagent.knowledge;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.store.NamedSql;
import io.sqlagent.workspace.vector.Embeddings;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * Finds a learning that says the same as a new one in other words: title and description are
 * embedded with all-MiniLM-L6-v2 (in-process, offline; loaded on first use), kept with the learning
 * at unit length, and compared by cosine similarity in the store, so no learning is held in memory.
 * Always the in-process model, whatever {@code sqlagent.vector.embedding} says: stored vectors must
 * stay comparable with the next one.
 */
@ApplicationScoped
public class LearningEmbeddings {

    /**
     * The stored learning closest to a vector, scored from the dot product of unit vectors (the cosine), in double
     * precision: PostgreSQL raises an error when a product of two {@code real}s underflows. Only learnings the caller
     * may read are compared ({@link KnowledgeReader}): another principal's proposal is not a duplicate for this caller.
     */
    private static final NamedSql NEAREST = NamedSql
            .of("""
                    SELECT id, title, status, similarity FROM (
                        SELECT id, title, status, (SELECT sum(a::float8 * b::float8) FROM unnest(embedding, CAST(CAST(:vector AS text) AS real[])) AS t(a, b)) AS similarity
                        FROM learning WHERE embedding IS NOT NULL
                            AND (status = 'approved' OR :reviewer OR proposed_by = :author)) scored
                    WHERE similarity >= :threshold ORDER BY similarity DESC, id LIMIT 1""");

    private final Pool store;
    /** The in-process model of the vector tools (langchain4j stays behind workspace.vector), loaded on first use. */
    private final Embeddings model;

    LearningEmbeddings(Pool store, Embeddings embeddings) {
        this.store = store;
        this.model = embeddings.local();
    }

    /** A stored learning close in meaning to a new one. */
    public record Near(long id, String title, String status, double similarity) {
    }

    /** The text of a learning that is embedded. */
    static String text(String title, String description) {
        return title.strip() + "\n" + description.strip();
    }

    /** The unit-length embedding of {@code text}, computed on a worker thread (ONNX blocks). */
    public Uni<Float[]> embed(String text) {
        return Uni.createFrom().item(() -> unit(model.embed(text)))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    /** The stored learning most similar to {@code vector} that {@code reader} may read, when one reaches {@code threshold}. */
    public Uni<Optional<Near>> nearest(Float[] vector, double threshold, KnowledgeReader reader) {
        if (threshold >= 1) {
            return Uni.createFrom().item(Optional.empty());
        }
        return NEAREST.execute(store, Map.of("vector", literal(vector), "threshold", threshold, "reviewer", reader.reviewer(),
                "author", reader.author()))
                .map(rows -> {
                    var found = rows.iterator();
                    if (!found.hasNext()) {
                        return Optional.empty();
                    }
                    var row = found.next();
                    return Optional.of(new Near(row.getLong(0), row.getString(1), row.getString(2), row.getDouble(3)));
                });
    }

    /** The cosine of two unit vectors, as the store computes it: their dot product in double precision. */
    static double cosine(Float[] a, Float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i].doubleValue() * b[i].doubleValue();
        }
        return sum;
    }

    /**
     * {@code vector} as a PostgreSQL array literal, cast to {@code real[]} in the statement: the
     * store's {@code embedding} column is written as text, whose cast PostgreSQL checks.
     */
    static String literal(Float[] vector) {
        StringBuilder text = new StringBuilder("{");
        for (int i = 0; i < vector.length; i++) {
            text.append(i == 0 ? "" : ",").append(vector[i]);
        }
        return text.append('}').toString();
    }

    private static Float[] unit(float[] vector) {
        double norm = 0;
        for (float value : vector) {
            norm += value * value;
        }
        double length = Math.sqrt(norm);
        Float[] unit = new Float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            unit[i] = length == 0 ? 0f : (float) (vector[i] / length);
        }
        return unit;
    }
}
