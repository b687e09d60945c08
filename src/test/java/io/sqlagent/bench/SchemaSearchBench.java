package io.sqlagent.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import io.sqlagent.SnakeCaseJson;
import io.sqlagent.embedded.EmbeddedDatabase;
import io.sqlagent.knowledge.schema.ColumnValues;
import io.sqlagent.knowledge.schema.SchemaIndex;
import io.sqlagent.sql.policy.ColumnPolicy;
import io.sqlagent.sql.policy.TablePolicy;
import io.sqlagent.sql.schema.SchemaIntrospector;
import io.sqlagent.sql.source.Source;
import io.sqlagent.workspace.vector.Embeddings;
import io.sqlagent.workspace.vector.InProcessModel;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;

/**
 * The schema retrieval benchmark: creates one {@link SchemaSet} (a generated warehouse at a given size, or Pagila) in a
 * database of the embedded PostgreSQL, builds the schema index from its catalog as the service does (word index, then
 * the in-process all-MiniLM-L6-v2 vectors), and asks the set's questions. It reports the recall@5 of
 * the tables each question needs, the retrieval latency (the question's embedding included), and an estimate of the
 * prompt tokens schema discovery costs the agent. Run by {@code bench/schema-search.sh}; see docs/benchmarks.md,
 * "Schema search". {@code SchemaSearchRecallTest} runs {@link #evaluate} at 300 tables in {@code ./mvnw verify}.
 */
public final class SchemaSearchBench {

    private static final Duration WAIT = Duration.ofMinutes(10);
    /** Tables search_schema returns by default, what the agent reads. */
    private static final int SEARCH_LIMIT = 10;
    private static final int RECALL_AT = 5;
    /**
     * The deeper cut-offs reported beside recall@5: how many needed tables a second step that rereads the first
     * candidates (a reranker) would have to choose from.
     */
    private static final int CANDIDATES = 20;

    private SchemaSearchBench() {
    }

    /** What one run measured. */
    public record Result(int tables, int questions, int neededTables, int foundTables, int questionsFullyFound,
            long indexMillis, long embeddingMillis, double p50Millis, double p95Millis, double meanTokens, double p95Tokens,
            double maxTokens, double wordsOnlyRecall, double wordsOnlyP50Millis, long listingTokens, List<String> misses,
            int embeddedTexts, long refreshEmbeddingMillis, int wordVectors, int foundInTop10, int foundInTop20) {

        public double recall() {
            return neededTables == 0 ? 1 : (double) foundTables / neededTables;
        }
    }

    /** Creates a database named {@code database} holding the first {@code count} tables of {@code set} (again if it exists). */
    public static void createDatabase(String adminJdbcUrl, String database, SchemaSet set, int count) throws Exception {
        // Registered explicitly: under a Quarkus test's class loader DriverManager may not have found it on its own.
        Class.forName("org.postgresql.Driver");
        try (Connection admin = DriverManager.getConnection(adminJdbcUrl, EmbeddedDatabase.USER, "");
                Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + database);
        }
        String url = adminJdbcUrl.substring(0, adminJdbcUrl.lastIndexOf('/') + 1) + database;
        try (Connection connection = DriverManager.getConnection(url, EmbeddedDatabase.USER, "");
                Statement statement = connection.createStatement()) {
            List<String> ddl = set.ddl().apply(count);
            if (ddl.size() == 1) {
                // A script of many statements: a batch would refuse its many results.
                statement.execute(ddl.get(0));
            } else {
                for (String sql : ddl) {
                    statement.addBatch(sql);
                }
                statement.executeBatch();
            }
            // The statistics the index reads column values from, as autovacuum would record them in time.
            statement.execute("ANALYZE");
        }
    }

    /** A source on {@code reactiveUrl} (postgresql://host:port/database), for the introspector. */
    public static Source source(Vertx vertx, String reactiveUrl) {
        PgConnectOptions options = PgConnectOptions.fromUri(reactiveUrl).setUser(EmbeddedDatabase.USER);
        io.vertx.sqlclient.Pool pool = PgBuilder.pool().connectingTo(options).using(vertx.getDelegate()).build();
        return new Source("bench", reactiveUrl, Optional.of(Pool.newInstance(pool)), Optional.empty(),
                new Source.PoolLimits(4, 100, Duration.ofSeconds(30)), new AtomicInteger());
    }

    /** Builds the index of {@code source} and asks every question of {@code asked} whose tables it holds. */
    public static Result evaluate(Source source, Embeddings embeddings, List<WarehouseSchema.Question> asked) {
        SchemaIntrospector introspector = new SchemaIntrospector();
        long started = System.nanoTime();
        List<SchemaIntrospector.CatalogTable> catalog = introspector.catalog(source).await().atMost(WAIT);
        // -Dbench.column-values=false measures the ranking without the values (the ablation in docs/schema-search.md).
        Map<String, Map<String, List<String>>> values = Boolean.parseBoolean(System.getProperty("bench.column-values", "true"))
                ? ColumnValues.read(source, Integer.getInteger("bench.column-values-max-distinct", 100)).await().atMost(WAIT)
                : Map.of();
        SchemaIndex words = SchemaIndex.build(catalog, values, new TablePolicy(Optional.empty(), Optional.empty()),
                new ColumnPolicy(Optional.empty()), 100_000);
        long indexMillis = (System.nanoTime() - started) / 1_000_000;
        started = System.nanoTime();
        SchemaIndex index = words.embedded(embeddings, null);
        long embeddingMillis = (System.nanoTime() - started) / 1_000_000;
        // A refresh of an unchanged schema: every vector is reused.
        started = System.nanoTime();
        words.embedded(embeddings, index);
        long refreshEmbeddingMillis = (System.nanoTime() - started) / 1_000_000;
        java.util.Set<String> present = new java.util.HashSet<>();
        index.entries().forEach(entry -> present.add(entry.table()));

        List<WarehouseSchema.Question> questions = asked.stream()
                .filter(question -> present.containsAll(question.tables())).toList();
        // Warm-up: the first embeddings and searches pay for class loading and JIT compilation.
        for (int i = 0; i < Math.min(20, questions.size()); i++) {
            index.search(questions.get(i).text(), embeddings.embed(questions.get(i).text()), List.of(), SEARCH_LIMIT);
        }
        // The baseline, measured in the same run: the word ranking alone.
        int wordsFound = 0;
        double[] wordsLatencies = new double[questions.size()];
        for (int q = 0; q < questions.size(); q++) {
            WarehouseSchema.Question question = questions.get(q);
            long began = System.nanoTime();
            List<SchemaIndex.Hit> hits = index.search(question.text(), null, List.of(), SEARCH_LIMIT);
            wordsLatencies[q] = (System.nanoTime() - began) / 1e6;
            List<String> top = hits.stream().limit(RECALL_AT).map(SchemaIndex.Hit::table).toList();
            wordsFound += (int) question.tables().stream().filter(top::contains).count();
        }
        Arrays.sort(wordsLatencies);
        int needed = 0;
        int found = 0;
        int fully = 0;
        int foundInTop10 = 0;
        int foundInTop20 = 0;
        double[] latencies = new double[questions.size()];
        double[] tokens = new double[questions.size()];
        List<String> misses = new ArrayList<>();
        for (int q = 0; q < questions.size(); q++) {
            WarehouseSchema.Question question = questions.get(q);
            long began = System.nanoTime();
            // The question's vector is part of what a search costs, so it is made inside the timing.
            float[] vector = embeddings.embed(question.text());
            List<SchemaIndex.Hit> hits = index.search(question.text(), vector, List.of(), SEARCH_LIMIT);
            latencies[q] = (System.nanoTime() - began) / 1e6;
            List<String> top = hits.stream().limit(RECALL_AT).map(SchemaIndex.Hit::table).toList();
            int hit = (int) question.tables().stream().filter(top::contains).count();
            needed += question.tables().size();
            found += hit;
            if (hit == question.tables().size()) {
                fully++;
            } else {
                misses.add(question.text() + " needs " + question.tables() + ", top " + RECALL_AT + ": " + top);
            }
            tokens[q] = discoveryTokens(introspector, source, catalog, hits, question.tables());
            // Outside the timed search: the same question with more places, for recall@10 and @20.
            List<String> candidates = index.search(question.text(), vector, List.of(), CANDIDATES).stream()
                    .map(SchemaIndex.Hit::table).toList();
            List<String> top10 = candidates.subList(0, Math.min(10, candidates.size()));
            foundInTop10 += (int) question.tables().stream().filter(top10::contains).count();
            foundInTop20 += (int) question.tables().stream().filter(candidates::contains).count();
        }
        Arrays.sort(latencies);
        Arrays.sort(tokens);
        return new Result(index.entries().size(), questions.size(), needed, found, fully, indexMillis, embeddingMillis,
                percentile(latencies, 0.5), percentile(latencies, 0.95), Arrays.stream(tokens).average().orElse(0),
                percentile(tokens, 0.95), tokens.length == 0 ? 0 : tokens[tokens.length - 1],
                needed == 0 ? 1 : (double) wordsFound / needed, percentile(wordsLatencies, 0.5), listingTokens(index), misses,
                index.modelCalls(), refreshEmbeddingMillis, index.wordVectors(), foundInTop10, foundInTop20);
    }

    /** The tokens of the listing introspect_schema gave before it was paged: every name at once. */
    private static long listingTokens(SchemaIndex index) {
        try {
            List<String> names = index.entries().stream().map(SchemaIndex.Entry::table).toList();
            return (long) Math
                    .ceil(SnakeCaseJson.MAPPER.writeValueAsString(Map.of("tables", names, "count", names.size())).length()
                            / 4.0);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The tokens the agent reads to discover the schema for one question: the {@code search_schema} result (ten tables)
     * plus an {@code introspect_schema} description of each table it needs, as JSON text, at four characters a token
     * (the usual rule of thumb for English and JSON with OpenAI's tokenizers).
     */
    private static double discoveryTokens(SchemaIntrospector introspector, Source source,
            List<SchemaIntrospector.CatalogTable> catalog, List<SchemaIndex.Hit> hits, List<String> needed) {
        try {
            int characters = SnakeCaseJson.MAPPER.writeValueAsString(Map.of("tables", hits)).length();
            for (String table : needed) {
                SchemaIntrospector.Relation relation = catalog.stream().map(SchemaIntrospector.CatalogTable::relation)
                        .filter(r -> (r.schema() + "." + r.name()).equals(table)).findFirst().orElseThrow();
                Map<String, Object> described = new LinkedHashMap<>();
                described.put("table", relation.displayName());
                described.put("description", relation.description());
                described.put("columns", introspector.columns(source, relation).await().atMost(WAIT));
                described.put("relationships", introspector.relationships(source, relation).await().atMost(WAIT));
                described.put("sample_data", List.of());
                characters += SnakeCaseJson.MAPPER.writeValueAsString(described).length();
            }
            return Math.ceil(characters / 4.0);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    /** This process's resident set, MB (Linux); -1 where {@code /proc} does not tell. */
    static long residentMegabytes() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(line -> line.startsWith("VmRSS:"))
                    .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", "")) / 1024).findFirst().orElse(-1);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    public static void main(String[] args) throws Exception {
        SchemaSet set = SchemaSet.named(args.length > 0 ? args[0] : "generated");
        int tables = args.length > 1 ? Integer.parseInt(args[1]) : set.fullSize();
        EmbeddedDatabase.Endpoint server = EmbeddedDatabase.startOrReuse(new EmbeddedDatabase.Settings(
                Path.of("target/schema-bench-pg"), true, 0, Duration.ofSeconds(120)));
        String database = set.name() + tables;
        long started = System.nanoTime();
        createDatabase("jdbc:" + server.url("postgres"), database, set, tables);
        long generatedMillis = (System.nanoTime() - started) / 1_000_000;
        Vertx vertx = Vertx.vertx();
        Source source = source(vertx, server.url(database));
        String model = System.getProperty("bench.model", InProcessModel.QUANTIZED);
        Embeddings embeddings = Embeddings.inProcess(model);
        long rssBefore = residentMegabytes();
        embeddings.embed("load the model");
        long rssLoaded = residentMegabytes();
        Result result = evaluate(source, embeddings, set.questions());
        long rssAfter = residentMegabytes();
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("set", set.name());
        report.put("model", model);
        report.put("rss_before_model_mb", rssBefore);
        report.put("rss_model_loaded_mb", rssLoaded);
        report.put("rss_after_build_and_searches_mb", rssAfter);
        report.put("held_out", SchemaSet.HELD_OUT.contains(set.name()));
        report.put("tables", result.tables());
        report.put("questions", result.questions());
        report.put("recall_at_5", Math.round(result.recall() * 1000) / 1000.0);
        report.put("questions_with_every_table_in_top_5", result.questionsFullyFound());
        report.put("recall_at_10", result.neededTables() == 0 ? 1
                : Math.round(1000.0 * result.foundInTop10() / result.neededTables()) / 1000.0);
        report.put("recall_at_20", result.neededTables() == 0 ? 1
                : Math.round(1000.0 * result.foundInTop20() / result.neededTables()) / 1000.0);
        report.put("baseline_words_only_recall_at_5", Math.round(result.wordsOnlyRecall() * 1000) / 1000.0);
        report.put("baseline_words_only_p50_ms", Math.round(result.wordsOnlyP50Millis() * 100) / 100.0);
        report.put("baseline_list_all_tables_tokens", result.listingTokens());
        report.put("generate_schema_ms", generatedMillis);
        report.put("word_index_ms", result.indexMillis());
        report.put("embedding_ms", result.embeddingMillis());
        report.put("embedded_texts", result.embeddedTexts());
        report.put("word_vectors", result.wordVectors());
        report.put("refresh_embedding_ms", result.refreshEmbeddingMillis());
        report.put("retrieval_p50_ms", Math.round(result.p50Millis() * 100) / 100.0);
        report.put("retrieval_p95_ms", Math.round(result.p95Millis() * 100) / 100.0);
        report.put("discovery_tokens_mean", Math.round(result.meanTokens()));
        report.put("discovery_tokens_p95", Math.round(result.p95Tokens()));
        report.put("discovery_tokens_max", Math.round(result.maxTokens()));
        report.put("cpus", Runtime.getRuntime().availableProcessors());
        report.put("load_average", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        report.put("misses", result.misses());
        String json = SnakeCaseJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/schema-search-" + set.name() + ".json"), json);
        System.out.println(json);
        source.requirePool().closeAndAwait();
        vertx.closeAndAwait();
        System.exit(0);
    }
}
