package io.sqlagent.knowledge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.sqlagent.ClasspathText;
import io.sqlagent.EmbeddedDemo;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.SqlVerdict;
import io.sqlagent.store.StoreMigrations;

/**
 * Loads the knowledge files into the store at start-up: the ones shipped under {@code knowledge/}
 * on the classpath (listed in {@code knowledge/index.txt}, since a jar's folders cannot be listed
 * portably), then the {@code *.json} files of {@code sqlagent.knowledge.path}. Loading is an upsert
 * by name, so restarts and replicas load the same files without duplicates. A file that cannot be
 * read is skipped and logged by name; so is a pattern whose SQL the guard refuses.
 */
@ApplicationScoped
public class KnowledgeLoader {

    /** How a shipped file is named in messages and in the store's {@code source_file}. */
    static final String SHIPPED_PREFIX = "classpath:knowledge/";

    /** The shipped files' index on the classpath. */
    static final String SHIPPED_INDEX = "knowledge/index.txt";

    // Unknown keys are errors: a misspelt "query_pattern" would otherwise load nothing, silently.
    private static final ObjectMapper FILES = SnakeCaseJson.MAPPER.copy()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final KnowledgeStore store;
    private final StoreMigrations migrations;
    private final SqlGuard guard;
    private final KnowledgeConfig config;

    KnowledgeLoader(KnowledgeStore store, StoreMigrations migrations, SqlGuard guard, KnowledgeConfig config) {
        this.store = store;
        this.migrations = migrations;
        this.guard = guard;
        this.config = config;
    }

    /** A knowledge file's name (for messages) and text. */
    public record Document(String name, String text) {
    }

    // After StoreMigrations (default priority), which creates the tables.
    void loadOnStart(@Observes @Priority(Interceptor.Priority.APPLICATION + 600) StartupEvent event) {
        if (!migrations.ready()) {
            Log.warn("Knowledge files were not loaded: the store's schema is not up to date");
            return;
        }
        try {
            loadAll().await().atMost(WAIT);
        } catch (RuntimeException e) {
            // Knowledge is an aid, not a dependency: the service runs without it.
            Log.errorf("Knowledge files could not be loaded: %s", e.getMessage());
        }
    }

    /**
     * Loads {@link #documents()} into the store; when the shipped files do not apply, first deletes what they loaded on
     * an earlier start (the demo's patterns, left in a store that now serves a database of the user's own). Returns the
     * items loaded.
     */
    public Uni<Integer> loadAll() {
        boolean shipped = shippedApplies();
        List<Document> documents = documents(shipped);
        Uni<Integer> forgotten = shipped ? Uni.createFrom().item(0) : store.forgetFiles(SHIPPED_PREFIX);
        return forgotten.flatMap(gone -> {
            if (gone > 0) {
                Log.infof("Knowledge base: %d item(s) of the shipped knowledge files removed, as they are not loaded", gone);
            }
            return Multi.createFrom().iterable(documents)
                    .onItem().transformToUniAndConcatenate(this::load)
                    .collect().asList()
                    .map(counts -> counts.stream().mapToInt(Integer::intValue).sum());
        }).invoke(loaded -> {
            Log.infof("Knowledge base: %d item(s) loaded from %d file(s)", loaded, documents.size());
            if (config.shipped() && !shipped) {
                Log.info("The shipped knowledge file (knowledge/chinook.json, for the embedded Chinook demo) is not loaded: "
                        + "source 'default' is a database of your own. Put your own knowledge files in "
                        + "sqlagent.knowledge.path (docs/knowledge.md)");
            }
        });
    }

    /**
     * The files to load, shipped ones first. The shipped files describe the embedded Chinook demo, so they are loaded
     * only while source {@code default} is that demo, as the shipped tool file is: on a database of the user's own their
     * patterns would answer {@code search_knowledge} with another database's SQL, and their table names ({@code customer},
     * {@code invoice}, {@code employee}) would steer {@code search_schema} to the user's tables of the same name.
     */
    public List<Document> documents() {
        return documents(shippedApplies());
    }

    private List<Document> documents(boolean shipped) {
        List<Document> documents = new ArrayList<>();
        if (shipped) {
            documents.addAll(shipped());
        }
        config.path().map(Path::of).ifPresent(path -> documents.addAll(fromFilesystem(path)));
        return documents;
    }

    private boolean shippedApplies() {
        return config.shipped() && EmbeddedDemo.setsProperty("sqlagent.sources.default.url");
    }

    /** The knowledge files shipped with the service. */
    public static List<Document> shipped() {
        List<Document> documents = new ArrayList<>();
        Optional<String> index = ClasspathText.find(SHIPPED_INDEX);
        if (index.isEmpty()) {
            return documents;
        }
        for (String line : index.get().split("\n")) {
            String name = line.strip();
            if (name.isEmpty() || name.startsWith("#")) {
                continue;
            }
            ClasspathText.find("knowledge/" + name).ifPresentOrElse(
                    text -> documents.add(new Document(SHIPPED_PREFIX + name, text)),
                    () -> Log.errorf("Knowledge file knowledge/%s is listed in %s but missing", name, SHIPPED_INDEX));
        }
        return documents;
    }

    static List<Document> fromFilesystem(Path path) {
        List<Document> documents = new ArrayList<>();
        if (!Files.isDirectory(path)) {
            Log.warnf("sqlagent.knowledge.path %s is not a directory; no knowledge files loaded from it",
                    path.toAbsolutePath());
            return documents;
        }
        try (Stream<Path> files = Files.list(path)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList()) {
                try {
                    documents.add(new Document(file.toString(), Files.readString(file, StandardCharsets.UTF_8)));
                } catch (IOException e) {
                    Log.errorf("Knowledge file %s could not be read: %s", file, e.getMessage());
                }
            }
        } catch (IOException e) {
            Log.errorf("Knowledge directory %s could not be listed: %s", path, e.getMessage());
        }
        return documents;
    }

    /**
     * Parses a knowledge file.
     *
     * @throws IllegalArgumentException naming the file, when it is not a valid knowledge file
     */
    public static KnowledgeFile parse(Document document) {
        KnowledgeFile file;
        try {
            file = FILES.readValue(document.text(), KnowledgeFile.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Knowledge file " + document.name() + " is not valid: " + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
        }
        if (file == null) {
            throw new IllegalArgumentException("Knowledge file " + document.name() + " is empty");
        }
        return file;
    }

    /** Loads one file; returns how many items it stored. Never fails: problems are logged with the file's name. */
    public Uni<Integer> load(Document document) {
        KnowledgeFile file;
        try {
            file = parse(document);
        } catch (IllegalArgumentException e) {
            Log.error(e.getMessage() + "; the file is skipped");
            return Uni.createFrom().item(0);
        }
        List<Uni<Boolean>> steps = new ArrayList<>();
        for (KnowledgeFile.TableNote table : file.tables()) {
            steps.add(doc(document, "table", table.name(), table.body()));
        }
        for (KnowledgeFile.Rule rule : file.rules()) {
            steps.add(doc(document, "rule", rule.name(), rule.description()));
        }
        for (KnowledgeFile.Pattern pattern : file.queryPatterns()) {
            steps.add(pattern(document, pattern));
        }
        return Multi.createFrom().iterable(steps)
                .onItem().transformToUniAndConcatenate(step -> step)
                .collect().asList()
                .map(results -> (int) results.stream().filter(Boolean::booleanValue).count());
    }

    private Uni<Boolean> doc(Document document, String kind, String name, String body) {
        if (blank(name) || blank(body)) {
            return Uni.createFrom().item(logged(document, kind + " '" + name + "'", "a name and a text are required"));
        }
        return store.upsertDoc(kind, name.strip(), body.strip(), document.name()).replaceWith(true)
                .onFailure().recoverWithItem(failure -> logged(document, kind + " '" + name + "'", failure.getMessage()));
    }

    private Uni<Boolean> pattern(Document document, KnowledgeFile.Pattern pattern) {
        String name = pattern.name();
        if (blank(name) || name.strip().length() > 100 || blank(pattern.question()) || blank(pattern.sql())
                || blank(pattern.summary())) {
            return Uni.createFrom().item(logged(document, "query pattern '" + name + "'",
                    "name (at most 100 characters), question, sql and summary are required"));
        }
        SqlVerdict verdict = guard.check(pattern.sql());
        if (!verdict.allowed()) {
            return Uni.createFrom().item(logged(document, "query pattern '" + name + "'",
                    "the SQL guard refuses its SQL: " + verdict.reason()));
        }
        return store.upsertFilePattern(pattern, document.name())
                .map(stored -> stored || logged(document, "query pattern '" + name + "'",
                        "a pattern the agent saved already has this name"))
                .onFailure().recoverWithItem(failure -> logged(document, "query pattern '" + name + "'", failure.getMessage()));
    }

    private static boolean logged(Document document, String item, String reason) {
        Log.errorf("Knowledge file %s: %s is skipped: %s", document.name(), item, reason);
        return false;
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }
}
