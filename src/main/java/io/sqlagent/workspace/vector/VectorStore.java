package io.sqlagent.workspace.vector;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.store.StoreMigrations;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolUnavailableException;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * The vector collections. In the service the store holds them ({@link VectorLedger}): a change is
 * written there first, and every replica keeps a Lucene index of each collection under
 * {@code sqlagent.vector.path} that {@link VectorSync} keeps equal to the store, so what one
 * replica writes every other finds. Built on a bare directory ({@link #VectorStore(Path)}, tests and
 * benchmarks) the indexes are all there is and changes go straight into them.
 */
@Singleton
public class VectorStore {

    /** Collection names map to directory names: no separators, no dots in front, nothing to escape. */
    public static final String NAME_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$";
    private static final Pattern NAME = Pattern.compile(NAME_PATTERN);
    private static final Duration APPLY_WAIT = Duration.ofSeconds(10);

    /** A change made: the documents it touched, in the order asked. */
    record Written(List<String> ids) {
    }

    private final Path root;
    private final Map<String, VectorCollection> open = new ConcurrentHashMap<>();
    private final Optional<VectorLedger> ledger;
    private final Optional<VectorSync> sync;
    private final MetadataLimits metadataLimits;
    private final Duration closeTimeout;

    @Inject
    VectorStore(VectorConfig config, Pool store, StoreMigrations migrations) {
        this.root = config.path().toAbsolutePath().normalize();
        this.metadataLimits = MetadataLimits.of(config.metadata());
        this.closeTimeout = config.closeTimeout();
        VectorLedger records = new VectorLedger(store);
        this.ledger = Optional.of(records);
        this.sync = Optional.of(new VectorSync(this, records, migrations::ready, config.syncInterval(),
                config.changeRetention()));
    }

    /** Collections on a directory alone, without a store: tests and benchmarks. */
    public VectorStore(Path root) {
        this(root, MetadataLimits.DEFAULTS);
    }

    /** Collections on a directory alone, with these metadata bounds. */
    VectorStore(Path root, MetadataLimits metadataLimits) {
        this.root = root.toAbsolutePath().normalize();
        this.metadataLimits = metadataLimits;
        this.closeTimeout = Duration.ofSeconds(2);
        this.ledger = Optional.empty();
        this.sync = Optional.empty();
    }

    void followTheStore(@Observes @Priority(Interceptor.Priority.APPLICATION + 600) StartupEvent event) {
        sync.ifPresent(VectorSync::start);
    }

    /** The collection to search. */
    VectorCollection searchable(String name) {
        checkName(name);
        if (sync.isPresent() && !sync.get().loaded()) {
            throw new ToolUnavailableException(
                    "The vector collections are still being loaded from the store; try again in a few seconds");
        }
        return collection(name, Optional.empty());
    }

    /** Adds documents with new ids, creating the collection as {@code create} if need be. */
    Uni<Written> insert(String name, VectorCollection.Info create, List<VectorCollection.Entry> entries) {
        checkName(name);
        checkDistinctKeys(name, entries);
        if (ledger.isPresent()) {
            return replicated(name, ledger.get().insert(name, create, entries));
        }
        return local(() -> {
            VectorCollection collection = collection(name, Optional.of(create));
            synchronized (collection) {
                List<String> ids = entries.stream().map(VectorCollection.Entry::id).toList();
                List<String> taken = collection.existing(ids);
                if (!taken.isEmpty()) {
                    throw new ToolException(
                            "Documents " + taken + " already exist in '" + name + "'; use update to replace them");
                }
                collection.put(entries);
                return new Written(ids);
            }
        });
    }

    /** Replaces documents that exist, by id. */
    Uni<Written> update(String name, List<VectorCollection.Entry> entries) {
        checkName(name);
        checkDistinctKeys(name, entries);
        if (ledger.isPresent()) {
            return replicated(name, ledger.get().update(name, entries));
        }
        return local(() -> {
            VectorCollection collection = collection(name, Optional.empty());
            synchronized (collection) {
                List<String> ids = entries.stream().map(VectorCollection.Entry::id).toList();
                List<String> missing = new ArrayList<>(ids);
                missing.removeAll(collection.existing(ids));
                if (!missing.isEmpty()) {
                    throw new ToolException(
                            "Documents " + missing + " do not exist in '" + name + "'; use insert to add them");
                }
                collection.put(entries);
                return new Written(ids);
            }
        });
    }

    /** Deletes the documents among {@code ids} that exist; those are the ids written. */
    Uni<Written> delete(String name, List<String> ids) {
        checkName(name);
        if (ledger.isPresent()) {
            return replicated(name, ledger.get().delete(name, ids));
        }
        return local(() -> {
            VectorCollection collection = collection(name, Optional.empty());
            synchronized (collection) {
                List<String> found = collection.existing(ids.stream().distinct().toList());
                collection.delete(found);
                return new Written(found);
            }
        });
    }

    /**
     * A change committed to the store answers once this replica's index has it, so the caller
     * finds what it wrote at once. The change is durable when the store commits it: should this
     * replica be slow to apply it, the answer says so in the log but is still the success it is.
     */
    private Uni<Written> replicated(String name, Uni<VectorLedger.Written> write) {
        return write
                .onFailure(failure -> !(failure instanceof ToolException))
                .transform(failure -> new ToolUnavailableException(
                        "Collection '" + name + "' cannot be changed now: the store did not take the change ("
                                + failure.getMessage() + ")"))
                .flatMap(written -> sync.orElseThrow().applied(written.seq())
                        .ifNoItem().after(APPLY_WAIT).recoverWithItem(() -> {
                            Log.warnf("Change %d of collection '%s' is in the store but not yet in this replica's index",
                                    written.seq(), name);
                            return null;
                        })
                        .replaceWith(new Written(written.ids())));
    }

    /** Blocking Lucene work of the store-less mode, on a worker thread. */
    private static Uni<Written> local(IoSupplier<Written> change) {
        return Uni.createFrom().item(() -> {
            try {
                return change.get();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .onFailure(UncheckedIOException.class)
                .transform(
                        failure -> new ToolException("The collection cannot be changed: " + failure.getCause().getMessage()));
    }

    @FunctionalInterface
    private interface IoSupplier<T> {
        T get() throws IOException;
    }

    MetadataLimits metadataLimits() {
        return metadataLimits;
    }

    /**
     * Against the collection as this replica holds it: calls racing on two replicas can pass the bound by what
     * they add together, which {@code max-keys} per document bounds.
     */
    private void checkDistinctKeys(String name, List<VectorCollection.Entry> entries) {
        Set<String> existing = open.containsKey(name) || VectorCollection.exists(root.resolve(name))
                ? collection(name, Optional.empty()).metadataKeys()
                : Set.of();
        metadataLimits.checkDistinct(name, existing, entries);
    }

    private static void checkName(String name) {
        if (!NAME.matcher(name).matches() || name.contains("..")) {
            throw new ToolException("'" + name + "' is not a collection name: letters, digits, '.', '_' and '-', at most 100");
        }
    }

    /** The collection, opened if need be; created with {@code create} when it does not exist and that is given. */
    VectorCollection collection(String name, Optional<VectorCollection.Info> create) {
        checkName(name);
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

    Path root() {
        return root;
    }

    /** Names of the collections on disk. */
    Set<String> onDisk() throws IOException {
        Set<String> names = new TreeSet<>();
        if (!Files.isDirectory(root)) {
            return names;
        }
        try (Stream<Path> entries = Files.list(root)) {
            entries.filter(VectorCollection::exists)
                    .map(path -> path.getFileName().toString())
                    .filter(name -> NAME.matcher(name).matches())
                    .forEach(names::add);
        }
        return names;
    }

    /** Closes and deletes every collection on disk (only directories that are collections). */
    void dropAll() throws IOException {
        close();
        for (String name : onDisk()) {
            try (Stream<Path> files = Files.walk(root.resolve(name))) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    /** Closes every open collection; later calls open them again. */
    public void close() {
        // Each is taken out before it is closed: a close still waiting for a merge is never waited for twice.
        for (String name : List.copyOf(open.keySet())) {
            VectorCollection collection = open.remove(name);
            if (collection == null) {
                continue;
            }
            try {
                collection.close();
            } catch (IOException e) {
                Log.warnf("Collection '%s' did not close cleanly: %s", name, e.getMessage());
            }
        }
    }

    /** At shutdown: stops following the store, then closes the collections. */
    @PreDestroy
    void shutDown() {
        sync.ifPresent(VectorSync::close);
        closeWithin(closeTimeout);
    }

    /**
     * Closes the collections, waiting at most {@code timeout}: closing aborts merges, but Lucene notices the abort
     * only between writes, and a merge of many fields (terms of each) can go on for minutes first; it is then left to
     * the process's exit (merge threads are daemons). Returns whether everything closed in time.
     */
    boolean closeWithin(Duration timeout) {
        Thread closing = new Thread(this::close, "sqlagent-vector-close");
        closing.setDaemon(true);
        closing.start();
        try {
            closing.join(Math.max(1, timeout.toMillis()));
            if (!closing.isAlive()) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Log.warnf("The vector collections did not close within %d ms; shutdown goes on (their last commits are on disk)",
                timeout.toMillis());
        return false;
    }
}
