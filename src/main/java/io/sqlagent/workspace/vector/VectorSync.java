package io.sqlagent.workspace.vector;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.tool.ToolException;

/**
 * Keeps this replica's local indexes equal to the store: on start it catches up from the change it
 * applied last (recorded beside the indexes) or, when that is unknown, too old or from another
 * store, rebuilds every collection from the store's documents; then it reads the store's record
 * of changes every {@code sqlagent.vector.sync-interval} and, for each change, copies the current
 * rows of the documents it names (or drops those gone), so applying a change twice or late does no
 * harm. A replica's own writes wake it at once, and the write answers when they are applied here.
 *
 * <p>
 * One thread of its own does all of it, so passes never overlap and the waits on the store never
 * hold a request thread or the event loop.
 */
final class VectorSync implements AutoCloseable {

    private static final int CHANGES_PER_READ = 100;
    private static final int DOCUMENTS_PER_READ = 200;
    private static final Duration STORE_WAIT = Duration.ofSeconds(30);
    private static final Duration PRUNE_EVERY = Duration.ofMinutes(10);
    /** Beside the collections' directories: which store they follow and the last change applied. */
    static final String MARKER = "sqlagent-store.json";

    /** What the local indexes hold: the store they copy and the last change applied. */
    record Marker(String store, long seq) {
    }

    private record Waiter(long seq, CompletableFuture<Void> applied) {
    }

    private final VectorStore local;
    private final VectorLedger ledger;
    private final BooleanSupplier storeReady;
    private final Duration interval;
    private final Duration retention;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread named = new Thread(runnable, "sqlagent-vector-sync");
        named.setDaemon(true);
        return named;
    });
    private final PriorityQueue<Waiter> waiting = new PriorityQueue<>((a, b) -> Long.compare(a.seq(), b.seq()));
    private final AtomicBoolean woken = new AtomicBoolean();
    /** The last change applied here; -1 until the indexes are loaded. Written by the sync thread only. */
    private volatile long applied = -1;
    private String storeId;
    private long lastPrune;
    private boolean failing;

    VectorSync(VectorStore local, VectorLedger ledger, BooleanSupplier storeReady, Duration interval, Duration retention) {
        this.local = local;
        this.ledger = ledger;
        this.storeReady = storeReady;
        this.interval = interval;
        this.retention = retention;
        this.lastPrune = System.nanoTime() - PRUNE_EVERY.toNanos();
    }

    void start() {
        thread.scheduleWithFixedDelay(this::pass, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the local indexes have been loaded from the store (searches wait for it). */
    boolean loaded() {
        return applied >= 0;
    }

    /** Completes once change {@code seq} is applied here; wakes the sync thread to apply it now. */
    Uni<Void> applied(long seq) {
        if (seq <= applied) {
            return Uni.createFrom().voidItem();
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        synchronized (waiting) {
            waiting.add(new Waiter(seq, done));
        }
        wake();
        return Uni.createFrom().completionStage(done);
    }

    private void wake() {
        if (woken.compareAndSet(false, true)) {
            try {
                thread.execute(() -> {
                    woken.set(false);
                    pass();
                });
            } catch (RejectedExecutionException e) {
                woken.set(false);
            }
        }
    }

    /** One round: load if need be, apply new changes, prune now and then. Failures are logged once per streak. */
    private void pass() {
        try {
            if (!storeReady.getAsBoolean()) {
                return;
            }
            if (applied < 0) {
                load();
            }
            catchUp();
            pruneNowAndThen();
            if (failing) {
                Log.info("Vector collections follow the store again");
                failing = false;
            }
        } catch (IOException | RuntimeException e) {
            if (thread.isShutdown()) {
                return; // stopping: the wait on the store was interrupted
            }
            if (!failing) {
                Log.warnf("Vector collections could not follow the store (retried every %s): %s", interval, e.getMessage());
                failing = true;
            }
        } finally {
            release();
        }
    }

    private void load() throws IOException {
        VectorLedger.State state = await(ledger.state());
        Optional<Marker> marker = readMarker();
        storeId = state.storeId();
        if (marker.isPresent() && marker.get().store().equals(state.storeId())
                && marker.get().seq() >= state.prunedThrough() && marker.get().seq() <= state.lastSeq()) {
            applied = marker.get().seq();
            Log.infof("Vector collections follow the store from change %d", applied);
            return;
        }
        if (marker.isEmpty()) {
            importLocalCollections();
        }
        rebuild();
    }

    /**
     * Collections written before the store held them (no marker yet) are copied into it, so an
     * upgrade loses nothing; documents the store already has stay as they are there.
     */
    private void importLocalCollections() throws IOException {
        Set<String> names = local.onDisk();
        for (String name : names) {
            VectorCollection collection = local.collection(name, Optional.empty());
            int[] copied = { 0 };
            try {
                collection.forEachBatch(DOCUMENTS_PER_READ, batch -> {
                    await(ledger.importMissing(name, collection.info(), batch));
                    copied[0] += batch.size();
                });
            } catch (ToolException conflict) {
                // Kept out rather than retried forever: the store's collection stays as it is.
                Log.warnf("Vector collection '%s' in %s was not copied into the store: %s", name, collection.directory(),
                        conflict.getMessage());
                continue;
            }
            Log.infof("Vector collection '%s' copied from %s into the store (%d documents)", name, collection.directory(),
                    copied[0]);
        }
    }

    /** Replaces every local index by the store's documents. */
    private void rebuild() throws IOException {
        long started = System.nanoTime();
        // The last seq before the documents are read: changes committed meanwhile are applied again, harmlessly.
        long through = await(ledger.state()).lastSeq();
        local.dropAll();
        Map<String, VectorCollection.Info> collections = await(ledger.collections());
        long documents = 0;
        for (Map.Entry<String, VectorCollection.Info> stored : collections.entrySet()) {
            VectorCollection collection = local.collection(stored.getKey(), Optional.of(stored.getValue()));
            String after = "";
            List<VectorCollection.Entry> page;
            do {
                page = await(ledger.page(stored.getKey(), after, DOCUMENTS_PER_READ));
                if (!page.isEmpty()) {
                    collection.put(page);
                    after = page.get(page.size() - 1).id();
                    documents += page.size();
                }
            } while (page.size() == DOCUMENTS_PER_READ);
        }
        writeMarker(through);
        applied = through;
        Log.infof("Vector collections loaded from the store: %d collections, %d documents in %d ms", collections.size(),
                documents, Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    private void catchUp() throws IOException {
        List<VectorLedger.Change> changes;
        do {
            changes = await(ledger.changesAfter(applied, CHANGES_PER_READ));
            for (VectorLedger.Change change : changes) {
                apply(change);
                applied = change.seq();
            }
            if (!changes.isEmpty()) {
                writeMarker(applied);
                release();
            }
        } while (changes.size() == CHANGES_PER_READ);
    }

    /** Makes the documents a change names what the store holds now. */
    private void apply(VectorLedger.Change change) throws IOException {
        List<VectorCollection.Entry> current = await(ledger.documents(change.collection(), change.ids()));
        Set<String> gone = new HashSet<>(change.ids());
        current.forEach(entry -> gone.remove(entry.id()));
        local.collection(change.collection(), Optional.of(change.info())).replace(current, List.copyOf(gone));
    }

    private void pruneNowAndThen() {
        if (System.nanoTime() - lastPrune >= PRUNE_EVERY.toNanos()) {
            lastPrune = System.nanoTime();
            await(ledger.prune(retention));
        }
    }

    /** Completes the waits for changes applied by now. */
    private void release() {
        synchronized (waiting) {
            while (!waiting.isEmpty() && waiting.peek().seq() <= applied) {
                waiting.poll().applied().complete(null);
            }
        }
    }

    private Optional<Marker> readMarker() {
        Path file = local.root().resolve(MARKER);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(SnakeCaseJson.MAPPER.readValue(file.toFile(), Marker.class));
        } catch (IOException e) {
            Log.warnf("%s cannot be read (%s): the vector collections are rebuilt from the store", file, e.getMessage());
            return Optional.of(new Marker("", -1));
        }
    }

    private void writeMarker(long seq) throws IOException {
        Files.createDirectories(local.root());
        Path file = local.root().resolve(MARKER);
        Path temporary = local.root().resolve(MARKER + ".tmp");
        SnakeCaseJson.MAPPER.writeValue(temporary.toFile(), new Marker(storeId, seq));
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(STORE_WAIT);
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
