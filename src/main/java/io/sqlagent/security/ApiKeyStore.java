package io.sqlagent.security;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/** The store's {@code api_key} table: keys by name, found by key id, secrets only as hashes. */
@ApplicationScoped
public class ApiKeyStore {

    /** A stored key, without anything secret; its principal is {@code key:<keyId>}. */
    public record StoredKey(String name, String keyId, List<String> scopes, Map<String, String> attributes, String createdBy,
            OffsetDateTime createdAt, OffsetDateTime lastUsedAt) {
    }

    /** A stored key with its secret's hash, for authentication only. */
    record Credential(StoredKey key, byte[] secretHash) {
    }

    private final Pool store;

    ApiKeyStore(Pool store) {
        this.store = store;
    }

    private static final String INSERT = """
            INSERT INTO api_key (name, key_id, secret_hash, scopes, attributes, created_by)
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING""";

    private static final String LIST = """
            SELECT name, key_id, scopes, attributes, created_by, created_at, last_used_at FROM api_key ORDER BY name""";

    private static final String DELETE = """
            DELETE FROM api_key WHERE name = $1""";

    private static final String FIND = """
            SELECT name, key_id, scopes, attributes, created_by, created_at, last_used_at, secret_hash
            FROM api_key WHERE key_id = $1""";

    private static final String TOUCH = """
            UPDATE api_key SET last_used_at = now()
            WHERE name = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')""";

    /** Stores a new key; false when the name is taken. */
    public Uni<Boolean> create(String name, ApiKeys.Issued issued, List<String> scopes, Map<String, String> attributes,
            String createdBy) {
        return store.preparedQuery(INSERT)
                .execute(Tuple.from(Arrays.asList(name, issued.keyId(), io.vertx.core.buffer.Buffer.buffer(
                        issued.secretHash()), scopes.toArray(String[]::new), new JsonObject(Map.copyOf(attributes)),
                        createdBy)))
                .map(rows -> rows.rowCount() == 1);
    }

    public Uni<List<StoredKey>> list() {
        return store.query(LIST)
                .execute()
                .map(rows -> {
                    List<StoredKey> keys = new java.util.ArrayList<>();
                    rows.forEach(row -> keys.add(key(row)));
                    return keys;
                });
    }

    /** Deletes a key; false when there is none of that name. */
    public Uni<Boolean> delete(String name) {
        return store.preparedQuery(DELETE).execute(Tuple.of(name))
                .map(rows -> rows.rowCount() == 1);
    }

    /** The key with this id, with its secret's hash. */
    Uni<Optional<Credential>> find(String keyId) {
        return store.preparedQuery(FIND)
                .execute(Tuple.of(keyId))
                .map(rows -> {
                    var iterator = rows.iterator();
                    if (!iterator.hasNext()) {
                        return Optional.empty();
                    }
                    Row row = iterator.next();
                    return Optional.of(new Credential(key(row), row.getBuffer("secret_hash").getBytes()));
                });
    }

    /**
     * Records a key's use. Written at most once a minute per key, so a busy client does not turn
     * every request into a write.
     */
    Uni<Void> touch(String name) {
        return store.preparedQuery(TOUCH)
                .execute(Tuple.of(name))
                .replaceWithVoid();
    }

    private static StoredKey key(Row row) {
        Map<String, String> attributes = new TreeMap<>();
        JsonObject json = row.getJsonObject("attributes");
        if (json != null) {
            json.forEach(entry -> attributes.put(entry.getKey(), String.valueOf(entry.getValue())));
        }
        return new StoredKey(row.getString("name"), row.getString("key_id"), List.of(row.getArrayOfStrings("scopes")),
                attributes,
                row.getString("created_by"), row.getOffsetDateTime("created_at"), row.getOffsetDateTime("last_used_at"));
    }
}
