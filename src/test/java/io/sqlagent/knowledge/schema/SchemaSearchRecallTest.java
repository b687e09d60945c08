package io.sqlagent.knowledge.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.sqlagent.bench.SchemaSearchBench;
import io.sqlagent.bench.WarehouseSchema;
import io.sqlagent.sql.Source;
import io.sqlagent.workspace.vector.Embeddings;
import io.vertx.mutiny.core.Vertx;

/**
 * Schema retrieval on a generated warehouse of 300 tables (in a database of its own on the shared embedded
 * PostgreSQL): the tables each benchmark question needs are among the first five {@code search_schema} finds. The
 * full benchmark, at 2,000 tables, is {@code bench/schema-search.sh}.
 */
@QuarkusTest
class SchemaSearchRecallTest {

    private static final int TABLES = 300;

    @ConfigProperty(name = "sqlagent.sources.default.url")
    String defaultSourceUrl;

    @Inject
    Vertx vertx;

    @Test
    void findsTheTablesTheQuestionsNeedAmongTheFirstFive() throws Exception {
        String server = defaultSourceUrl.substring(0, defaultSourceUrl.lastIndexOf('/') + 1);
        SchemaSearchBench.createDatabase("jdbc:" + server + "postgres", "warehouse_recall", TABLES);
        Source source = SchemaSearchBench.source(vertx, server + "warehouse_recall");
        try {
            SchemaSearchBench.Result result = SchemaSearchBench.evaluate(source, Embeddings.inProcess());

            assertEquals(TABLES, result.tables());
            assertTrue(result.questions() >= 80, "questions that apply at 300 tables: " + result.questions());
            // The goal is 95 %; the search reaches 95.7 % at 300 tables (docs/benchmarks.md).
            assertTrue(result.recall() >= 0.95,
                    "recall@5 " + result.recall() + " over " + result.questions() + " questions; missed: " + result.misses());
        } finally {
            source.requirePool().closeAndAwait();
        }
    }

    @Test
    void everyQuestionNamesTablesTheGeneratorMakes() {
        var names = WarehouseSchema.tables(2000).stream().map(WarehouseSchema.Table::qualified).toList();

        for (WarehouseSchema.Question question : WarehouseSchema.questions()) {
            assertTrue(names.containsAll(question.tables()), question.text() + " " + question.tables());
        }
    }
}
