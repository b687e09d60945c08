package io.sqlagent.workspace.vector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.StorableText;
import io.sqlagent.tool.ToolException;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The vector collections as the store holds them ({@code vector_collection}, {@code vector_document})
 * and the record of their changes ({@code vector_change}) that replicas follow. Every write is one
 * transaction under one advisory lock: the check (ids taken or missing, dimensions) and the change
 * cannot interleave with another replica's, and changes are committed in the order of their
 * {@code seq}, so a follower that reads {@code seq > n} never skips one committed later.
 */
final class VectorLedger {

    /** A committed change: its {@code seq} (0 when nothing changed) and the documents it touched. */
    record Written(long seq, List<String> ids) {
    }

    /** One entry of the record of changes, with the shape of its collection. */
    record Change(long seq, String collection, VectorCollection.Info info, List<String> ids) {
    }

    /**
     * Which store this is, up to which {@code seq} its record was pruned, and its last {@code seq}.
     */
    record State(String storeId, long prunedThrough, long lastSeq) {
    }

    private static final long LOCK_KEY = 0x5A_1A_7E_C7L;

    private static final String LOCK = """
            SELECT pg_advisory_xact_lock(%d)""".formatted(LOCK_KEY);

    private static final String COLLECTION = """
            SELECT dimension, embedding FROM vector_collection WHERE name = $1""";

    private static final String CREATE_COLLECTION = """
            INSERT INTO vector_collection (name, dimension, embedding) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING""";

    private static final String EXISTING = """
            SELECT id FROM vector_document WHERE collection = $1 AND id = ANY($2)""";

    private static final String PUT = """
            INSERT INTO vector_document (collection, id, text, metadata, vector) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (collection, id) DO UPDATE SET text = excluded.text, metadata = excluded.metadata, vector = excluded.vector""";

    private static final String PUT_IF_ABSENT = """
            INSERT INTO vector_document (collection, id, text, metadata, vector) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (collection, id) DO NOTHING""";

    private static final String DELETE = """
            DELETE FROM vector_document WHERE collection = $1 AND id = ANY($2) RETURNING id""";

    private static final String RECORD = """
            INSERT INTO vector_change (collection, operation, ids) VALUES ($1, $2, $3) RETURNING seq""";

    private static final String CHANGES = """
            SELECT ch.seq, ch.collection, ch.ids, c.dimension, c.embedding
            FROM vector_change ch JOIN vector_collection c ON c.name = ch.collection
            WHERE ch.seq > $1 ORDER BY ch.seq LIMIT $2""";

    private static final String DOCUMENTS = """
            SELECT id, text, metadata, vector FROM vector_document WHERE collection = $1 AND id = ANY($2)""";

    private static final String PAGE = """
            SELECT id, text, metadata, vector FROM vector_document WHERE collection = $1 AND id > $2 ORDER BY id LIMIT $3""";

    private static final String COLLECTIONS = """
            SELECT name, dimension, embedding FROM vector_collection ORDER BY name""";

    private static final String STATE = """
            SELECT store_id, pruned_through,
                   greatest(pruned_through, (SELECT coalesce(max(seq), 0) FROM vector_change)) AS last_seq
            FROM vector_log""";

    private static final String PRUNE = """
            WITH pruned AS (DELETE FROM vector_change WHERE changed_at < now() - make_interval(secs => $1) RETURNING seq)
            UPDATE vector_log SET pruned_through = greatest(pruned_through, (SELECT max(seq) FROM pruned))
            WHERE EXISTS (SELECT 1 FROM pruned)""";

    private final Pool store;

    VectorLedger(Pool store) {
        this.store = store;
    }

    /** Adds documents whose ids are new, creating the collection as {@code create} when it does not exist. */
    Uni<Written> insert(String name, VectorCollection.Info create, List<VectorCollection.Entry> entries) {
        List<String> ids = ids(entries);
        return store.withTransaction(connection -> lockAndCreate(connection, name, create)
                .invoke(info -> check(name, info, entries))
                .flatMap(info -> existing(connection, name, ids))
                .invoke(taken -> {
                    if (!taken.isEmpty()) {
                        throw new ToolException(
                                "Documents " + taken + " already exist in '" + name + "'; use update to replace them");
                    }
                })
                .flatMap(none -> put(connection, PUT, name, entries))
                .flatMap(done -> record(connection, name, "insert", ids)));
    }

    /** Replaces documents that exist, by id. */
    Uni<Written> update(String name, List<VectorCollection.Entry> entries) {
        List<String> ids = ids(entries);
        return store.withTransaction(connection -> lock(connection)
                .flatMap(locked -> existingCollection(connection, name))
                .invoke(info -> check(name, info, entries))
                .flatMap(info -> existing(connection, name, ids))
                .invoke(found -> {
                    List<String> missing = new ArrayList<>(ids);
                    missing.removeAll(found);
                    if (!missing.isEmpty()) {
                        throw new ToolException(
                                "Documents " + missing + " do not exist in '" + name + "'; use insert to add them");
                    }
                })
                .flatMap(none -> put(connection, PUT, name, entries))
                .flatMap(done -> record(connection, name, "update", ids)));
    }

    /** Deletes the documents among {@code ids} that exist; the written ids are those, in the order asked. */
    Uni<Written> delete(String name, List<String> ids) {
        List<String> asked = ids.stream().map(StorableText::clean).distinct().toList();
        return store.withTransaction(connection -> lock(connection)
                .flatMap(locked -> existingCollection(connection, name))
                .flatMap(info -> connection.preparedQuery(DELETE)
                        .execute(Tuple.of(name, asked.toArray(String[]::new))))
                .map(rows -> {
                    Set<String> deleted = new HashSet<>();
                    rows.forEach(row -> deleted.add(row.getString("id")));
                    return asked.stream().filter(deleted::contains).toList();
                })
                .flatMap(found -> found.isEmpty() ? Uni.createFrom().item(new Written(0, found))
                        : record(connection, name, "delete", found)));
    }

    /**
     * Copies documents of a collection written before the store held collections: documents the
     * store already has (by id) are left as the store has them.
     */
    Uni<Written> importMissing(String name, VectorCollection.Info info, List<VectorCollection.Entry> entries) {
        return store.withTransaction(connection -> lockAndCreate(connection, name, info)
                .invoke(stored -> {
                    if (stored.dimension() != info.dimension()) {
                        throw new ToolException("the store's collection '" + name + "' holds vectors of "
                                + stored.dimension() + " dimensions, the local one " + info.dimension());
                    }
                })
                .flatMap(stored -> put(connection, PUT_IF_ABSENT, name, entries))
                .flatMap(done -> record(connection, name, "insert", ids(entries))));
    }

    Uni<State> state() {
        return store.query(STATE).execute()
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new State(row.getString("store_id"), row.getLong("pruned_through"), row.getLong("last_seq"));
                });
    }

    /** Changes after {@code seq}, oldest first, at most {@code limit}. */
    Uni<List<Change>> changesAfter(long seq, int limit) {
        return store.preparedQuery(CHANGES).execute(Tuple.of(seq, limit))
                .map(rows -> {
                    List<Change> changes = new ArrayList<>();
                    rows.forEach(row -> changes.add(new Change(row.getLong("seq"), row.getString("collection"),
                            info(row), List.of(row.getArrayOfStrings("ids")))));
                    return changes;
                });
    }

    /** The current documents among {@code ids} (those deleted since are absent). */
    Uni<List<VectorCollection.Entry>> documents(String collection, List<String> ids) {
        return store.preparedQuery(DOCUMENTS).execute(Tuple.of(collection, ids.toArray(String[]::new)))
                .map(VectorLedger::entries);
    }

    /** Up to {@code limit} documents of a collection whose ids sort after {@code afterId}, by id. */
    Uni<List<VectorCollection.Entry>> page(String collection, String afterId, int limit) {
        return store.preparedQuery(PAGE).execute(Tuple.of(collection, afterId, limit))
                .map(VectorLedger::entries);
    }

    /** Every collection the store holds, with its shape. */
    Uni<Map<String, VectorCollection.Info>> collections() {
        return store.query(COLLECTIONS).execute()
                .map(rows -> {
                    Map<String, VectorCollection.Info> collections = new LinkedHashMap<>();
                    rows.forEach(row -> collections.put(row.getString("name"), info(row)));
                    return collections;
                });
    }

    /** Deletes changes older than {@code retention}; how many were deleted is not needed. */
    Uni<Void> prune(Duration retention) {
        return store.preparedQuery(PRUNE).execute(Tuple.of((double) retention.toSeconds())).replaceWithVoid();
    }

    private static Uni<Void> lock(SqlConnection connection) {
        return connection.query(LOCK).execute().replaceWithVoid();
    }

    private static Uni<VectorCollection.Info> lockAndCreate(SqlConnection connection, String name,
            VectorCollection.Info create) {
        return lock(connection)
                .flatMap(locked -> connection.preparedQuery(CREATE_COLLECTION)
                        .execute(Tuple.of(name, create.dimension(), create.embedding())))
                .flatMap(created -> existingCollection(connection, name));
    }

    private static Uni<VectorCollection.Info> existingCollection(SqlConnection connection, String name) {
        return connection.preparedQuery(COLLECTION).execute(Tuple.of(name))
                .map(rows -> {
                    if (rows.size() == 0) {
                        throw new ToolException("No collection named '" + name + "' exists; vector_manage insert creates one");
                    }
                    return info(rows.iterator().next());
                });
    }

    private static void check(String name, VectorCollection.Info info, List<VectorCollection.Entry> entries) {
        entries.forEach(entry -> VectorCollection.check(name, info.dimension(), entry.vector()));
    }

    /** Ids among {@code ids} stored in the collection, in the order of {@code ids}. */
    private static Uni<List<String>> existing(SqlConnection connection, String name, List<String> ids) {
        return connection.preparedQuery(EXISTING).execute(Tuple.of(name, ids.toArray(String[]::new)))
                .map(rows -> {
                    Set<String> found = new HashSet<>();
                    rows.forEach(row -> found.add(row.getString("id")));
                    return ids.stream().filter(found::contains).toList();
                });
    }

    private static Uni<Void> put(SqlConnection connection, String sql, String name, List<VectorCollection.Entry> entries) {
        List<Tuple> rows = new ArrayList<>(entries.size());
        for (VectorCollection.Entry entry : entries) {
            Float[] vector = new Float[entry.vector().length];
            for (int i = 0; i < vector.length; i++) {
                vector[i] = entry.vector()[i];
            }
            rows.add(Tuple.tuple().addString(name).addString(StorableText.clean(entry.id()))
                    .addString(StorableText.clean(entry.text())).addString(StorableText.clean(entry.metadata().toString()))
                    .addArrayOfFloat(vector));
        }
        return connection.preparedQuery(sql).executeBatch(rows).replaceWithVoid();
    }

    private static Uni<Written> record(SqlConnection connection, String name, String operation, List<String> ids) {
        return connection.preparedQuery(RECORD).execute(Tuple.of(name, operation, ids.toArray(String[]::new)))
                .map(rows -> new Written(rows.iterator().next().getLong("seq"), ids));
    }

    private static List<String> ids(List<VectorCollection.Entry> entries) {
        return entries.stream().map(entry -> StorableText.clean(entry.id())).toList();
    }

    private static VectorCollection.Info info(Row row) {
        return new VectorCollection.Info(row.getInteger("dimension"), row.getString("embedding"));
    }

    private static List<VectorCollection.Entry> entries(Iterable<Row> rows) {
        List<VectorCollection.Entry> entries = new ArrayList<>();
        for (Row row : rows) {
            Float[] stored = row.getArrayOfFloats("vector");
            float[] vector = new float[stored.length];
            for (int i = 0; i < vector.length; i++) {
                vector[i] = stored[i];
            }
            entries.add(new VectorCollection.Entry(row.getString("id"), row.getString("text"),
                    metadata(row.getString("metadata")), vector));
        }
        return entries;
    }

    private static ObjectNode metadata(String json) {
        try {
            return (ObjectNode) SnakeCaseJson.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("vector_document.metadata is not a JSON object: " + e.getOriginalMessage(), e);
        }
    }
}
