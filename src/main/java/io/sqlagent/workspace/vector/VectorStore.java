package io.sqlagent.workspace.vector;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkus.logging.Log;
import io.sqlagent.tool.ToolException;

/**
 * The vector collections under {@code sqlagent.vector.path}, one directory each, opened on first
 * use and kept open (one writer each) until shutdown.
 */
@Singleton
public class VectorStore {

    /** Collection names map to directory names: no separators, no dots in front, nothing to escape. */
    public static final String NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$";
    private static final Pattern NAME = Pattern.compile(NAME_PATTERN);

    private final Path root;
    private final Map<String, VectorCollection> open = new ConcurrentHashMap<>();

    @Inject
    VectorStore(VectorConfig config) {
        this(config.path());
    }

    /** A store under {@code root}, for tests and benchmarks. */
    public VectorStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** The collection, opened if need be; created with {@code create} when it does not exist and that is given. */
    VectorCollection collection(String name, Optional<VectorCollection.Info> create) {
        if (!NAME.matcher(name).matches() || name.contains("..")) {
            throw new ToolException("'" + name + "' is not a collection name: letters, digits, '.', '_' and '-', at most 100");
        }
        VectorCollection existing = open.get(name);
        if (existing != null) {
            return existing;
        }
        Path directory = root.resolve(name);
        if (create.isEmpty() && !VectorCollection.exists(directory)) {
            throw new ToolException("No collection named '" + name + "' exists; vector_manage insert creates one");
        }
        return open.computeIfAbsent(name, key -> {
            try {
                return VectorCollection.open(key, directory, create);
            } catch (IOException e) {
                throw new UncheckedIOException("Collection '" + key + "' cannot be opened: " + e.getMessage(), e);
            }
        });
    }

    /** Closes every open collection (at shutdown); later calls open them again. */
    @PreDestroy
    public void close() {
        open.forEach((name, collection) -> {
            try {
                collection.close();
            } catch (IOException e) {
                Log.warnf("Collection '%s' did not close cleanly: %s", name, e.getMessage());
            }
        });
        open.clear();
    }
}
