package io.sqlagent.knowledge.schema;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.knowledge.KnowledgeStore;
import io.sqlagent.knowledge.LearningConfig;
import io.sqlagent.sql.SqlConfig;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.schema.SchemaIntrospector;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceRegistry;
import io.sqlagent.tool.ToolException;
import io.sqlagent.tool.ToolUnavailableException;
import io.sqlagent.workspace.vector.Embeddings;
import io.vertx.mutiny.core.Vertx;

/**
 * Keeps the schema index of the agent's source and answers searches over it. Each replica builds its own
 * index from the source's catalog (the source is the truth about its schema; nothing is stored) off the
 * request threads: first the word index, in milliseconds, then the vectors, which take seconds for
 * thousands of tables. Each finished step replaces the index atomically, so a search always uses a
 * complete index, the previous one during a rebuild, and never waits for one unless none was ever built.
 * The vectors are added once they are wanted: at start only with {@code sqlagent.schema.index.embed-at-start},
 * otherwise from the first search (or refresh on demand) on, so a replica nobody searches never loads the
 * embedding model (about 400 MB of RSS); searches until the vectors are in rank by words.
 * The knowledge base is read at search time through {@link KnowledgeStore}, so what it holds (and which of
 * it may be searched) is always current: tables its patterns use and its notes name rank higher.
 */
@ApplicationScoped
public class SchemaSearch {

    /** What the index holds now, for {@code GET /api/schema/index}. */
    public record Status(String source, String state, int tables, boolean semantic,
            @JsonProperty("built_at") String builtAt, @JsonProperty("build_millis") Long buildMillis,
            @JsonProperty("embedding_millis") Long embeddingMillis, String error) {
    }

    private final SchemaIntrospector introspector;
    private final SourceRegistry sources;
    private final TablePolicy tables;
    private final ColumnPolicy columns;
    private final KnowledgeStore knowledge;
    private final LearningConfig learning;
    private final Embeddings configuredEmbeddings;
    private final SchemaSearchConfig config;
    private final Vertx vertx;

    /** The source this index is of: {@code sqlagent.sql.source} for the bean, another for those of {@link #of}. */
    private final String sourceName;
    /** The bean, for the index of another source: the embedding model is shared, never loaded twice. */
    private final SchemaSearch parent;
    /** The indexes of the other sources the SQL tools may name, made on their first search. */
    private final Map<String, SchemaSearch> others = new ConcurrentHashMap<>();

    private final AtomicReference<SchemaIndex> current = new AtomicReference<>();
    private Build building;
    /** The rebuild a refresh asked for while another was under way, started once that one is done. */
    private Build queued;
    private volatile String state = "not built";
    private volatile String error;
    private volatile Long buildMillis;
    private volatile Long embeddingMillis;
    private volatile Embeddings embeddings;
    /** Whether builds add the vectors: from the start with embed-at-start, else from the first search on. */
    private volatile boolean vectorsWanted;
    private long timer = -1;
    private long startTimer = -1;

    @Inject
    SchemaSearch(SchemaIntrospector introspector, SourceRegistry sources, SqlConfig sql, TablePolicy tables,
            ColumnPolicy columns, KnowledgeStore knowledge, LearningConfig learning, Embeddings embeddings,
            SchemaSearchConfig config, Vertx vertx) {
        this.introspector = introspector;
        this.sources = sources;
        this.tables = tables;
        this.columns = columns;
        this.knowledge = knowledge;
        this.learning = learning;
        this.configuredEmbeddings = embeddings;
        this.config = config;
        this.vertx = vertx;
        this.vectorsWanted = config.index().embedAtStart();
        this.sourceName = sql.source();
        this.parent = null;
    }

    /** The index of {@code source}, built on its first search and rebuilt on a search once it is older than the interval. */
    private SchemaSearch(SchemaSearch parent, String source) {
        this.introspector = parent.introspector;
        this.sources = parent.sources;
        this.tables = parent.tables;
        this.columns = parent.columns;
        this.knowledge = parent.knowledge;
        this.learning = parent.learning;
        this.configuredEmbeddings = parent.configuredEmbeddings;
        this.config = parent.config;
        this.vertx = parent.vertx;
        this.vectorsWanted = parent.vectorsWanted;
        this.sourceName = source;
        this.parent = parent;
    }

    /**
     * The schema search of {@code source}: this one for {@code sqlagent.sql.source}, else one of its own, made now
     * if it is the first time. The caller has checked that the source may be named ({@code SourceChoice}).
     */
    public SchemaSearch of(String source) {
        if (source.equals(sourceName)) {
            return this;
        }
        return others.computeIfAbsent(source, name -> new SchemaSearch(this, name));
    }

    // The last observer of the start: the delay counts from the end of the start's own work (migrations, knowledge
    // and tool files), not from its beginning, which under load was seconds before ready.
    void onStart(@Observes @jakarta.annotation.Priority(Integer.MAX_VALUE) StartupEvent event) {
        if (config.index().buildAtStart()) {
            // In the background: readiness never waits for the index. A moment after the start, so that it does not
            // slow the start down (on two cores it took 0.8 s of CPU and 33 MB before ready); a search meanwhile builds.
            long delay = config.index().startDelay().toMillis();
            if (delay <= 0) {
                rebuild();
            } else {
                startTimer = vertx.setTimer(delay, id -> {
                    if (current.get() == null) {
                        rebuild();
                    }
                });
            }
        }
        long interval = config.index().refreshInterval().toMillis();
        if (interval > 0) {
            timer = vertx.setPeriodic(interval, id -> rebuild());
        }
    }

    @PreDestroy
    void stop() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        if (startTimer >= 0) {
            vertx.cancelTimer(startTimer);
        }
    }

    /**
     * One rebuild: {@code words} completes when the word index is in place, {@code done} when the vectors are too (or
     * the build failed).
     */
    public record Build(CompletableFuture<SchemaIndex> words, CompletableFuture<SchemaIndex> done) {
    }

    /**
     * Starts rebuilding the index from the catalog, vectors included (when semantic). A rebuild under way read the
     * catalog before this call, perhaps before the migration the caller made: one more follows it then, which the
     * refreshes asked meanwhile share.
     */
    public synchronized Build refresh() {
        vectorsWanted = true;
        if (building == null || building.done().isDone()) {
            return rebuild();
        }
        if (queued == null) {
            Build next = new Build(new CompletableFuture<>(), new CompletableFuture<>());
            queued = next;
            building.done().whenComplete((index, failure) -> {
                Build started;
                synchronized (this) {
                    queued = null;
                    started = rebuild();
                }
                forward(started.words(), next.words());
                forward(started.done(), next.done());
            });
        }
        return queued;
    }

    private static void forward(CompletableFuture<SchemaIndex> from, CompletableFuture<SchemaIndex> to) {
        from.whenComplete((index, failure) -> {
            if (failure != null) {
                to.completeExceptionally(failure);
            } else {
                to.complete(index);
            }
        });
    }

    /** Starts a rebuild, with vectors once they are wanted, unless one is under way: then that one. */
    private synchronized Build rebuild() {
        if (building != null && !building.done().isDone()) {
            return building;
        }
        Build started = new Build(new CompletableFuture<>(), new CompletableFuture<>());
        building = started;
        state = "building";
        long began = System.nanoTime();
        Uni.createFrom().deferred(() -> introspector.catalog(source()))
                .flatMap(catalog -> columnValues(catalog)
                        .map(values -> Map.entry(catalog, values)))
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(read -> SchemaIndex.build(read.getKey(), read.getValue(), tables, columns, config.index().maxTables()))
                .subscribe().with(index -> {
                    // With vectors to add and an index that has them, that one answers until they are in: a refresh
                    // embeds only what changed, in moments, and searches keep their ranking by meaning meanwhile.
                    SchemaIndex previous = current.get();
                    boolean embedding = config.index().semantic() && vectorsWanted && !index.entries().isEmpty();
                    if (!embedding || previous == null || !previous.semantic()) {
                        current.set(index);
                    }
                    buildMillis = (System.nanoTime() - began) / 1_000_000;
                    error = null;
                    Log.infof("Schema index of source '%s': %d tables indexed by words in %d ms (%d with column values "
                            + "from the planner's statistics)", sourceName, index.entries().size(), buildMillis,
                            index.valued());
                    started.words().complete(index);
                    if (embedding) {
                        state = "embedding";
                        embed(index, previous, started.done());
                    } else {
                        state = "ready";
                        started.done().complete(index);
                    }
                }, failure -> {
                    state = current.get() == null ? "failed" : "ready";
                    error = failure.getMessage();
                    Log.warnf("Schema index of source '%s' could not be built: %s", sourceName, failure.getMessage());
                    started.words().completeExceptionally(failure);
                    started.done().completeExceptionally(failure);
                });
        return started;
    }

    /**
     * Adds the vectors on a worker, reusing those of {@code previous} (the index being replaced) for unchanged tables; the
     * previous index, or the word index, answers meanwhile.
     */
    private void embed(SchemaIndex index, SchemaIndex previous, CompletableFuture<SchemaIndex> done) {
        long began = System.nanoTime();
        Uni.createFrom().item(() -> index.embedded(embeddings(), previous))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .subscribe().with(embedded -> {
                    current.set(embedded);
                    embeddingMillis = (System.nanoTime() - began) / 1_000_000;
                    state = "ready";
                    Log.infof("Schema index of source '%s': %d tables embedded in %d ms (%d texts through the model; %d "
                            + "copies share their original's vector, unchanged tables keep theirs)", sourceName,
                            index.entries().size(), embeddingMillis, embedded.modelCalls(), embedded.copies());
                    done.complete(embedded);
                }, failure -> {
                    current.set(index);
                    state = "ready";
                    error = "embedding failed: " + failure.getMessage();
                    Log.warnf(failure, "Schema index of source '%s': tables could not be embedded; searching by words",
                            sourceName);
                    done.complete(index);
                });
    }

    /**
     * The values of the source's low-cardinality text columns from its statistics; none when they are turned off or
     * cannot be read (a source without {@code pg_stats}), so the index is still built, by names. A MySQL or MariaDB
     * source offers no such statistics to every account: its values are those its {@code enum} and {@code set}
     * columns declare (in {@code catalog}), nothing read from its rows.
     */
    private Uni<Map<String, Map<String, List<String>>>> columnValues(List<SchemaIntrospector.CatalogTable> catalog) {
        if (!config.index().columnValues()) {
            return Uni.createFrom().item(Map.of());
        }
        return Uni.createFrom().deferred(() -> source().isPostgres()
                ? ColumnValues.read(source(), config.index().columnValuesMaxDistinct())
                : Uni.createFrom().item(SchemaIntrospector.declaredValues(catalog)))
                .onFailure().recoverWithItem(failure -> {
                    Log.warnf("Schema index of source '%s': column values could not be read from the statistics (%s); "
                            + "indexing names only", sourceName, failure.getMessage());
                    return Map.of();
                });
    }

    /** The in-process model: the shared one unless the vector tools use a remote model. */
    private Embeddings embeddings() {
        if (parent != null) {
            return parent.embeddings();
        }
        Embeddings chosen = embeddings;
        if (chosen == null) {
            chosen = configuredEmbeddings.local();
            embeddings = chosen;
        }
        return chosen;
    }

    private Source source() {
        return sources.find(sourceName)
                .orElseThrow(() -> new ToolException("No source named '" + sourceName + "' is configured"));
    }

    /** The index now; when none was ever built, the word index a build started now gives. */
    public Uni<SchemaIndex> index() {
        SchemaIndex index = current.get();
        if (index != null) {
            long interval = config.index().refreshInterval().toMillis();
            if (parent != null && interval > 0 && System.currentTimeMillis() - index.builtAt() > interval) {
                // Another source's index has no timer of its own: a search past the interval starts a rebuild, and
                // is answered by this index meanwhile.
                rebuild();
            }
            return Uni.createFrom().item(index);
        }
        return Uni.createFrom().completionStage(rebuild().words()).onFailure().transform(failure -> {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                    : failure;
            if (cause instanceof ToolUnavailableException outage) {
                // The source's server out of reach (sql.run.SourceOutage): a refusal to retry, as a statement gets.
                return outage;
            }
            return new ToolException(
                    "The schema index of source '" + sourceName + "' could not be built: " + cause.getMessage());
        });
    }

    /**
     * The best {@code limit} tables for {@code query}, best first. The first search of a word index starts adding the
     * vectors in the background; it and those until they are in rank by words.
     */
    public Uni<List<SchemaIndex.Hit>> search(String query, int limit) {
        if (config.index().semantic() && !vectorsWanted) {
            vectorsWanted = true;
            SchemaIndex index = current.get();
            if (index != null && !index.semantic()) {
                rebuild();
            }
        }
        return index().flatMap(index -> KnowledgeTables.named(knowledge, learning, query)
                .flatMap(known -> Uni.createFrom()
                        .item(() -> index.search(query,
                                index.semantic() && SchemaWords.hasWord(query) ? embeddings().embed(query) : null,
                                known, limit))
                        .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())));
    }

    /** The one-line summaries of the indexed tables, in catalog order, for a paged listing. */
    public Uni<List<Map.Entry<String, String>>> summaries() {
        return index().map(index -> index.entries().stream()
                .map(entry -> Map.entry(entry.table(), entry.summary())).toList());
    }

    public Status status() {
        SchemaIndex index = current.get();
        return new Status(sourceName, state, index == null ? 0 : index.entries().size(), index != null && index.semantic(),
                index == null ? null : Instant.ofEpochMilli(index.builtAt()).toString(), buildMillis, embeddingMillis, error);
    }
}
